//! The address classifier over a hand-written table, and its policy.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use AddressClass::*;
use citeproof_fetch::{AddressClass, FetchPolicy, check_url, classify_ip};
use proptest::prelude::*;

/// (address, expected class), written by hand.
const TABLE: &[(&str, AddressClass)] = &[
    // IPv4
    ("0.0.0.0", Unspecified),
    ("0.1.2.3", Unspecified),
    ("1.1.1.1", Public),
    ("8.8.8.8", Public),
    ("9.255.255.255", Public),
    ("10.0.0.0", Private),
    ("10.255.255.255", Private),
    ("11.0.0.0", Public),
    ("100.63.255.255", Public),
    ("100.64.0.0", SharedAddressSpace),
    ("100.100.100.200", SharedAddressSpace),
    ("100.127.255.255", SharedAddressSpace),
    ("100.128.0.0", Public),
    ("126.255.255.255", Public),
    ("127.0.0.1", Loopback),
    ("127.255.255.254", Loopback),
    ("128.0.0.0", Public),
    ("169.253.255.255", Public),
    ("169.254.0.1", LinkLocal),
    ("169.254.169.254", LinkLocal),
    ("169.255.0.0", Public),
    ("172.15.255.255", Public),
    ("172.16.0.0", Private),
    ("172.31.255.255", Private),
    ("172.32.0.0", Public),
    ("192.0.0.8", Reserved),
    ("192.0.1.1", Public),
    ("192.0.2.1", Documentation),
    ("192.88.99.1", Reserved),
    ("192.167.255.255", Public),
    ("192.168.0.1", Private),
    ("192.168.255.255", Private),
    ("192.169.0.0", Public),
    ("198.17.255.255", Public),
    ("198.18.0.0", Benchmarking),
    ("198.19.255.255", Benchmarking),
    ("198.20.0.0", Public),
    ("198.51.100.7", Documentation),
    ("203.0.113.9", Documentation),
    ("223.255.255.255", Public),
    ("224.0.0.1", Multicast),
    ("239.255.255.255", Multicast),
    ("240.0.0.1", Reserved),
    ("255.255.255.254", Reserved),
    ("255.255.255.255", Broadcast),
    // IPv6
    ("::", Unspecified),
    ("::1", Loopback),
    ("::2", Unspecified),
    ("2606:4700:4700::1111", Public),
    ("2001:4860:4860::8888", Public),
    ("2a00:1450:4001:82b::200e", Public),
    ("fe80::1", LinkLocal),
    ("febf:ffff::1", LinkLocal),
    ("fec0::1", Private),
    ("fc00::1", Private),
    ("fd12:3456:789a::1", Private),
    ("ff02::1", Multicast),
    ("ff0e::1", Multicast),
    ("2001:db8::1", Documentation),
    ("3fff::1", Documentation),
    ("2001:2::1", Benchmarking),
    ("2001::1", Reserved),      // Teredo
    ("2001:1ff::1", Reserved),  // rest of 2001::/23
    ("2001:200::1", Public),    // just past 2001::/23
    ("100::1", Reserved),       // discard-only
    ("64:ff9b:1::1", Reserved), // local-use NAT64
    ("5f00::1", Reserved),      // outside 2000::/3
    ("4000::1", Reserved),
    ("1::1", Reserved),
    // IPv4-mapped
    ("::ffff:127.0.0.1", Loopback),
    ("::ffff:7f00:1", Loopback),
    ("::ffff:10.1.2.3", Private),
    ("::ffff:169.254.169.254", LinkLocal),
    ("::ffff:0.0.0.0", Unspecified),
    ("::ffff:8.8.8.8", Public),
    ("::ffff:255.255.255.255", Broadcast),
    // IPv4-compatible (deprecated)
    ("::127.0.0.1", Loopback),
    ("::192.168.1.1", Private),
    ("::8.8.8.8", Public),
    // IPv4-translated
    ("::ffff:0:127.0.0.1", Loopback),
    ("::ffff:0:8.8.8.8", Public),
    // NAT64 well-known prefix
    ("64:ff9b::127.0.0.1", Loopback),
    ("64:ff9b::a00:1", Private),
    ("64:ff9b::169.254.169.254", LinkLocal),
    ("64:ff9b::100.64.0.1", SharedAddressSpace),
    ("64:ff9b::8.8.8.8", Public),
    // 6to4
    ("2002:7f00:1::1", Loopback),
    ("2002:a9fe:a9fe::1", LinkLocal),
    ("2002:c0a8:101::1", Private),
    ("2002:808:808::1", Public),
];

#[test]
fn classifier_table() {
    for (text, want) in TABLE {
        let ip: IpAddr = text.parse().unwrap();
        assert_eq!(classify_ip(ip), *want, "{text}");
    }
}

#[test]
fn policy_per_class() {
    let all = [
        (Public, true, true),
        (Loopback, false, true),
        (Private, false, true),
        (LinkLocal, false, false),
        (Unspecified, false, false),
        (Multicast, false, false),
        (Broadcast, false, false),
        (SharedAddressSpace, false, false),
        (Documentation, false, false),
        (Benchmarking, false, false),
        (Reserved, false, false),
    ];
    for (class, strict, with_private) in all {
        assert_eq!(class.is_allowed(false), strict, "{class}");
        assert_eq!(class.is_allowed(true), with_private, "{class}");
    }
}

/// Hosts written in the odd IPv4 spellings the WHATWG parser accepts, and what they are.
#[test]
fn numeric_host_spellings_are_classified() {
    let strict = FetchPolicy::default();
    let private_ok = FetchPolicy {
        allow_private: true,
        ..FetchPolicy::default()
    };
    let cases: &[(&str, &str, AddressClass)] = &[
        ("http://2130706433/", "127.0.0.1", Loopback),
        ("http://0x7f.1/", "127.0.0.1", Loopback),
        ("http://0x7f000001/", "127.0.0.1", Loopback),
        ("http://0177.0.0.1/", "127.0.0.1", Loopback),
        ("http://127.1/", "127.0.0.1", Loopback),
        ("http://127.0.0.1./", "127.0.0.1", Loopback),
        ("http://%31%32%37.0.0.1/", "127.0.0.1", Loopback),
        ("http://0/", "0.0.0.0", Unspecified),
        ("http://0x0/", "0.0.0.0", Unspecified),
        ("http://167772161/", "10.0.0.1", Private),
        ("http://2852039166/", "169.254.169.254", LinkLocal),
        ("http://0xa9.0xfe.0xa9.0xfe/", "169.254.169.254", LinkLocal),
        ("http://0251.0376.0251.0376/", "169.254.169.254", LinkLocal),
        ("http://4294967295/", "255.255.255.255", Broadcast),
        ("http://[::ffff:7f00:1]/", "::ffff:127.0.0.1", Loopback),
        (
            "http://[::ffff:a9fe:a9fe]/",
            "::ffff:169.254.169.254",
            LinkLocal,
        ),
        (
            "http://[0:0:0:0:0:ffff:169.254.169.254]/",
            "::ffff:169.254.169.254",
            LinkLocal,
        ),
        (
            "http://[64:ff9b::a9fe:a9fe]/",
            "64:ff9b::a9fe:a9fe",
            LinkLocal,
        ),
        ("http://[fe80::1]/", "fe80::1", LinkLocal),
        ("http://[::]/", "::", Unspecified),
    ];
    for (url, addr, class) in cases {
        for policy in [&strict, &private_ok] {
            let result = check_url(url, policy);
            if class.is_allowed(policy.allow_private) {
                assert!(result.is_ok(), "{url}: {result:?}");
                continue;
            }
            match result {
                Err(citeproof_fetch::FetchError::AddressForbidden {
                    addr: got,
                    class: got_class,
                    ..
                }) => {
                    assert_eq!(got, addr.parse::<IpAddr>().unwrap(), "{url}");
                    assert_eq!(got_class, *class, "{url}");
                }
                other => panic!("{url}: {other:?}"),
            }
        }
    }
}

proptest! {
    #[test]
    fn classifier_is_total_and_embedded_forms_agree(raw in any::<u32>(), raw6 in any::<u128>()) {
        let v4 = Ipv4Addr::from(raw);
        let class = classify_ip(IpAddr::V4(v4));
        let _ = classify_ip(IpAddr::V6(Ipv6Addr::from(raw6)));
        prop_assert_eq!(classify_ip(IpAddr::V6(v4.to_ipv6_mapped())), class);
        let nat64 = Ipv6Addr::from((0x64_u128 << 112) | (0xff9b_u128 << 96) | u128::from(raw));
        prop_assert_eq!(classify_ip(IpAddr::V6(nat64)), class);
        if raw > 1 {
            prop_assert_eq!(classify_ip(IpAddr::V6(v4.to_ipv6_compatible())), class);
        }
    }
}
