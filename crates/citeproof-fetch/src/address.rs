//! Address classification for the SSRF guard.
//!
//! [`classify_ip`] puts every IPv4 and IPv6 address in exactly one [`AddressClass`]. IPv6 forms
//! that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`,
//! IPv4-translated `::ffff:0:a.b.c.d`, the NAT64 well-known prefix `64:ff9b::/96` and 6to4
//! `2002::/16`) take the class of the embedded IPv4 address, so `::ffff:127.0.0.1` is loopback
//! and `64:ff9b::a00:1` is private.
//!
//! [`AddressClass::is_allowed`] is the policy: public addresses are always allowed; loopback and
//! private addresses only when the caller opts in (`allow_private`); every other class (link-local
//! including the cloud metadata address `169.254.169.254`, unspecified, multicast, broadcast,
//! shared address space, documentation, benchmarking, reserved) is always refused.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The class of an IP address, as far as the fetch policy is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressClass {
    /// Globally routable unicast.
    Public,
    /// `127.0.0.0/8`, `::1`.
    Loopback,
    /// `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`, unique local `fc00::/7`, deprecated
    /// site-local `fec0::/10`.
    Private,
    /// `169.254.0.0/16` (includes the cloud metadata address `169.254.169.254`), `fe80::/10`.
    LinkLocal,
    /// `0.0.0.0/8` ("this network"; `0.0.0.0` reaches the local host on common systems), `::`.
    Unspecified,
    /// `224.0.0.0/4`, `ff00::/8`.
    Multicast,
    /// `255.255.255.255`.
    Broadcast,
    /// Carrier-grade NAT shared address space `100.64.0.0/10` (some clouds put metadata
    /// services there).
    SharedAddressSpace,
    /// `192.0.2.0/24`, `198.51.100.0/24`, `203.0.113.0/24`, `2001:db8::/32`, `3fff::/20`.
    Documentation,
    /// `198.18.0.0/15`, `2001:2::/48`.
    Benchmarking,
    /// Everything else that is not globally routable unicast: `240.0.0.0/4`, `192.0.0.0/24`,
    /// `192.88.99.0/24`, discard-only `100::/64`, local-use NAT64 `64:ff9b:1::/48`, Teredo and the
    /// rest of `2001::/23`, and any IPv6 address outside `2000::/3` not listed elsewhere.
    Reserved,
}

impl AddressClass {
    /// Stable lowercase name, used in error messages.
    pub fn as_str(self) -> &'static str {
        match self {
            AddressClass::Public => "public",
            AddressClass::Loopback => "loopback",
            AddressClass::Private => "private",
            AddressClass::LinkLocal => "link-local",
            AddressClass::Unspecified => "unspecified",
            AddressClass::Multicast => "multicast",
            AddressClass::Broadcast => "broadcast",
            AddressClass::SharedAddressSpace => "shared-address-space",
            AddressClass::Documentation => "documentation",
            AddressClass::Benchmarking => "benchmarking",
            AddressClass::Reserved => "reserved",
        }
    }

    /// The policy: `Public` always; `Loopback` and `Private` only with `allow_private`;
    /// everything else never (link-local / metadata addresses stay forbidden even with
    /// `allow_private`).
    pub fn is_allowed(self, allow_private: bool) -> bool {
        match self {
            AddressClass::Public => true,
            AddressClass::Loopback | AddressClass::Private => allow_private,
            AddressClass::LinkLocal
            | AddressClass::Unspecified
            | AddressClass::Multicast
            | AddressClass::Broadcast
            | AddressClass::SharedAddressSpace
            | AddressClass::Documentation
            | AddressClass::Benchmarking
            | AddressClass::Reserved => false,
        }
    }
}

impl fmt::Display for AddressClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Classifies an IP address. Total: never panics.
pub fn classify_ip(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(v4) => classify_ipv4(v4),
        IpAddr::V6(v6) => classify_ipv6(v6),
    }
}

/// `true` when `addr` lies in `net/len` (`len` in 0..=32).
fn in_v4(addr: u32, net: [u8; 4], len: u32) -> bool {
    let net = u32::from_be_bytes(net);
    let mask = if len == 0 {
        0
    } else {
        u32::MAX << (32 - len.min(32))
    };
    addr & mask == net & mask
}

/// `true` when `addr` lies in `net/len` (`len` in 0..=128).
fn in_v6(addr: u128, net: u128, len: u32) -> bool {
    let mask = if len == 0 {
        0
    } else {
        u128::MAX << (128 - len.min(128))
    };
    addr & mask == net & mask
}

/// Classifies an IPv4 address.
pub fn classify_ipv4(ip: Ipv4Addr) -> AddressClass {
    let a = u32::from(ip);
    // Most specific ranges first.
    if a == u32::MAX {
        AddressClass::Broadcast
    } else if in_v4(a, [0, 0, 0, 0], 8) {
        AddressClass::Unspecified
    } else if in_v4(a, [127, 0, 0, 0], 8) {
        AddressClass::Loopback
    } else if in_v4(a, [10, 0, 0, 0], 8)
        || in_v4(a, [172, 16, 0, 0], 12)
        || in_v4(a, [192, 168, 0, 0], 16)
    {
        AddressClass::Private
    } else if in_v4(a, [169, 254, 0, 0], 16) {
        AddressClass::LinkLocal
    } else if in_v4(a, [100, 64, 0, 0], 10) {
        AddressClass::SharedAddressSpace
    } else if in_v4(a, [192, 0, 2, 0], 24)
        || in_v4(a, [198, 51, 100, 0], 24)
        || in_v4(a, [203, 0, 113, 0], 24)
    {
        AddressClass::Documentation
    } else if in_v4(a, [198, 18, 0, 0], 15) {
        AddressClass::Benchmarking
    } else if in_v4(a, [224, 0, 0, 0], 4) {
        AddressClass::Multicast
    } else if in_v4(a, [240, 0, 0, 0], 4)
        || in_v4(a, [192, 0, 0, 0], 24)
        || in_v4(a, [192, 88, 99, 0], 24)
    {
        AddressClass::Reserved
    } else {
        AddressClass::Public
    }
}

const fn v6(segments: [u16; 8]) -> u128 {
    let mut out: u128 = 0;
    let mut i = 0;
    while i < 8 {
        out = (out << 16) | segments[i] as u128;
        i += 1;
    }
    out
}

fn embedded_low32(a: u128) -> Ipv4Addr {
    Ipv4Addr::from((a & 0xffff_ffff) as u32)
}

/// Classifies an IPv6 address (forms that embed an IPv4 address take its class).
pub fn classify_ipv6(ip: Ipv6Addr) -> AddressClass {
    let a = u128::from(ip);
    if a == 0 {
        return AddressClass::Unspecified;
    }
    if a == 1 {
        return AddressClass::Loopback;
    }
    // ::ffff:a.b.c.d (IPv4-mapped), ::a.b.c.d (IPv4-compatible, deprecated),
    // ::ffff:0:a.b.c.d (IPv4-translated), 64:ff9b::a.b.c.d (NAT64 well-known prefix).
    if in_v6(a, v6([0, 0, 0, 0, 0, 0xffff, 0, 0]), 96)
        || in_v6(a, 0, 96)
        || in_v6(a, v6([0, 0, 0, 0, 0xffff, 0, 0, 0]), 96)
        || in_v6(a, v6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0]), 96)
    {
        return classify_ipv4(embedded_low32(a));
    }
    // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
    if in_v6(a, v6([0x2002, 0, 0, 0, 0, 0, 0, 0]), 16) {
        let v4 = Ipv4Addr::from(((a >> 80) & 0xffff_ffff) as u32);
        return classify_ipv4(v4);
    }
    if in_v6(a, v6([0xfe80, 0, 0, 0, 0, 0, 0, 0]), 10) {
        AddressClass::LinkLocal
    } else if in_v6(a, v6([0xfc00, 0, 0, 0, 0, 0, 0, 0]), 7)
        || in_v6(a, v6([0xfec0, 0, 0, 0, 0, 0, 0, 0]), 10)
    {
        AddressClass::Private
    } else if in_v6(a, v6([0xff00, 0, 0, 0, 0, 0, 0, 0]), 8) {
        AddressClass::Multicast
    } else if in_v6(a, v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]), 32)
        || in_v6(a, v6([0x3fff, 0, 0, 0, 0, 0, 0, 0]), 20)
    {
        AddressClass::Documentation
    } else if in_v6(a, v6([0x2001, 0x2, 0, 0, 0, 0, 0, 0]), 48) {
        AddressClass::Benchmarking
    } else if in_v6(a, v6([0x2001, 0, 0, 0, 0, 0, 0, 0]), 23)
        || in_v6(a, v6([0x64, 0xff9b, 0x1, 0, 0, 0, 0, 0]), 48)
        || in_v6(a, v6([0x100, 0, 0, 0, 0, 0, 0, 0]), 64)
        || !in_v6(a, v6([0x2000, 0, 0, 0, 0, 0, 0, 0]), 3)
    {
        AddressClass::Reserved
    } else {
        AddressClass::Public
    }
}
