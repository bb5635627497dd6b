//! The page count of a PDF, read from its page tree (AEF-L2-009).
//!
//! Only what that needs is implemented, with hard bounds, because the bytes come from the
//! network: the cross-reference chain (classic tables and cross-reference streams, `/Prev` and
//! `/XRefStm` followed, loops refused), object streams, `FlateDecode` with PNG predictors, and
//! the page tree walked from the catalog's `/Pages` counting `/Type /Page` leaves (cycles
//! refused). Nesting is bounded ([`MAX_NESTING`]), decompression is bounded
//! ([`MAX_INFLATED_BYTES`]) and so is the number of objects read ([`MAX_OBJECTS`]).
//!
//! Why not `lopdf` or `pdf`: both parse whole documents eagerly and have published crashes on
//! crafted files (stack overflows, which abort the process and cannot be caught); a verifier
//! that fetches PDFs chosen by others needs a parser that always returns.

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Deepest array/dictionary nesting accepted.
pub const MAX_NESTING: usize = 32;
/// Most bytes produced by decompression, over the whole document.
pub const MAX_INFLATED_BYTES: usize = 64 * 1024 * 1024;
/// Most objects read (including page tree nodes).
pub const MAX_OBJECTS: usize = 1_000_000;

type Dict = Vec<(Vec<u8>, Obj)>;

#[derive(Debug, Clone, PartialEq)]
enum Obj {
    Null,
    Bool(bool),
    Int(i64),
    Real,
    Str,
    Name(Vec<u8>),
    Array(Vec<Obj>),
    Dict(Dict),
    Ref(u32),
    /// A stream: its dictionary and the offset of its data in the file.
    Stream(Dict, usize),
}

fn get<'d>(d: &'d Dict, key: &[u8]) -> Option<&'d Obj> {
    d.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    Offset(usize),
    InStream(u32, u32),
}

fn is_ws(c: u8) -> bool {
    matches!(c, 0 | 9 | 10 | 12 | 13 | 32)
}

fn is_delim(c: u8) -> bool {
    matches!(
        c,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_regular(c: u8) -> bool {
    !is_ws(c) && !is_delim(c)
}

/// A cursor over bytes that parses PDF objects.
struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn skip_ws(&mut self) {
        loop {
            while self.b.get(self.i).is_some_and(|c| is_ws(*c)) {
                self.i += 1;
            }
            if self.b.get(self.i) == Some(&b'%') {
                while self
                    .b
                    .get(self.i)
                    .is_some_and(|c| *c != b'\n' && *c != b'\r')
                {
                    self.i += 1;
                }
            } else {
                return;
            }
        }
    }

    fn keyword(&mut self) -> Option<&'a [u8]> {
        self.skip_ws();
        let start = self.i;
        while self.b.get(self.i).is_some_and(|c| is_regular(*c)) {
            self.i += 1;
        }
        (self.i > start).then(|| &self.b[start..self.i])
    }

    fn expect_keyword(&mut self, k: &[u8]) -> Result<(), String> {
        match self.keyword() {
            Some(w) if w == k => Ok(()),
            other => Err(format!(
                "expected `{}`, found {:?}",
                String::from_utf8_lossy(k),
                other.map(String::from_utf8_lossy)
            )),
        }
    }

    fn uint(&mut self) -> Option<u64> {
        let save = self.i;
        match self.keyword() {
            Some(w) if !w.is_empty() && w.iter().all(u8::is_ascii_digit) && w.len() <= 15 => {
                std::str::from_utf8(w).ok()?.parse().ok()
            }
            _ => {
                self.i = save;
                None
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Obj, String> {
        if depth > MAX_NESTING {
            return Err("objects nest too deeply".into());
        }
        self.skip_ws();
        let Some(&c) = self.b.get(self.i) else {
            return Err("unexpected end of file".into());
        };
        match c {
            b'/' => {
                self.i += 1;
                let start = self.i;
                while self.b.get(self.i).is_some_and(|c| is_regular(*c)) {
                    self.i += 1;
                }
                Ok(Obj::Name(decode_name(&self.b[start..self.i])))
            }
            b'(' => {
                self.i += 1;
                let mut nest = 1usize;
                while nest > 0 {
                    match self.b.get(self.i) {
                        None => return Err("unterminated string".into()),
                        Some(b'\\') => self.i += 2,
                        Some(b'(') => {
                            nest += 1;
                            self.i += 1;
                        }
                        Some(b')') => {
                            nest -= 1;
                            self.i += 1;
                        }
                        Some(_) => self.i += 1,
                    }
                }
                Ok(Obj::Str)
            }
            b'<' if self.b.get(self.i + 1) == Some(&b'<') => {
                self.i += 2;
                let mut dict = Vec::new();
                loop {
                    self.skip_ws();
                    if self.b[self.i..].starts_with(b">>") {
                        self.i += 2;
                        break;
                    }
                    let key = match self.object(depth + 1)? {
                        Obj::Name(n) => n,
                        other => return Err(format!("dictionary key is not a name: {other:?}")),
                    };
                    let value = self.object(depth + 1)?;
                    dict.push((key, value));
                }
                // A stream follows its dictionary.
                let save = self.i;
                if self.keyword() == Some(b"stream") {
                    match self.b.get(self.i) {
                        Some(b'\r') if self.b.get(self.i + 1) == Some(&b'\n') => self.i += 2,
                        Some(b'\n' | b'\r') => self.i += 1,
                        _ => {}
                    }
                    return Ok(Obj::Stream(dict, self.i));
                }
                self.i = save;
                Ok(Obj::Dict(dict))
            }
            b'<' => {
                self.i += 1;
                while self.b.get(self.i).is_some_and(|c| *c != b'>') {
                    self.i += 1;
                }
                if self.b.get(self.i) != Some(&b'>') {
                    return Err("unterminated hex string".into());
                }
                self.i += 1;
                Ok(Obj::Str)
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    if self.b.get(self.i) == Some(&b']') {
                        self.i += 1;
                        break;
                    }
                    items.push(self.object(depth + 1)?);
                }
                Ok(Obj::Array(items))
            }
            _ => {
                let word = self
                    .keyword()
                    .ok_or_else(|| format!("unexpected byte {c:#04x}"))?;
                match word {
                    b"null" => Ok(Obj::Null),
                    b"true" => Ok(Obj::Bool(true)),
                    b"false" => Ok(Obj::Bool(false)),
                    _ => {
                        let text = std::str::from_utf8(word).map_err(|_| "bad number")?;
                        if let Ok(n) = text.parse::<i64>() {
                            // `n g R` is a reference.
                            let save = self.i;
                            if n >= 0
                                && let Some(_gen) = self.uint()
                                && self.keyword() == Some(b"R")
                            {
                                return u32::try_from(n)
                                    .map(Obj::Ref)
                                    .map_err(|_| "object number too large".into());
                            }
                            self.i = save;
                            Ok(Obj::Int(n))
                        } else if text.parse::<f64>().is_ok() {
                            Ok(Obj::Real)
                        } else {
                            Err(format!("unexpected keyword `{text}`"))
                        }
                    }
                }
            }
        }
    }
}

fn decode_name(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'#'
            && let Some(h) = raw.get(i + 1..i + 3)
            && let Ok(s) = std::str::from_utf8(h)
            && let Ok(v) = u8::from_str_radix(s, 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(raw[i]);
        i += 1;
    }
    out
}

struct Pdf<'a> {
    data: &'a [u8],
    xref: BTreeMap<u32, Entry>,
    trailer: Dict,
    inflated: usize,
    objects_read: usize,
    object_streams: HashMap<u32, Vec<(u32, Obj)>>,
}

/// The number of pages of a PDF, or why it cannot be read.
pub fn page_count(data: &[u8]) -> Result<u64, String> {
    let header_at = data
        .windows(5)
        .take(1024)
        .position(|w| w == b"%PDF-")
        .ok_or("no `%PDF-` header in the first 1024 bytes")?;
    let _ = header_at;
    let mut pdf = Pdf {
        data,
        xref: BTreeMap::new(),
        trailer: Vec::new(),
        inflated: 0,
        objects_read: 0,
        object_streams: HashMap::new(),
    };
    let start = find_startxref(data)?;
    pdf.read_xref_chain(start)?;
    pdf.count_pages()
}

fn find_startxref(data: &[u8]) -> Result<usize, String> {
    let tail_start = data.len().saturating_sub(4096);
    let tail = &data[tail_start..];
    let at = tail
        .windows(9)
        .rposition(|w| w == b"startxref")
        .ok_or("no `startxref` near the end of the file")?;
    let mut c = Cursor {
        b: data,
        i: tail_start + at + 9,
    };
    let offset = c.uint().ok_or("`startxref` is not followed by an offset")?;
    usize::try_from(offset).map_err(|_| "startxref offset too large".into())
}

impl<'a> Pdf<'a> {
    fn count_object(&mut self) -> Result<(), String> {
        self.objects_read += 1;
        if self.objects_read > MAX_OBJECTS {
            return Err("too many objects".into());
        }
        Ok(())
    }

    fn read_xref_chain(&mut self, start: usize) -> Result<(), String> {
        let mut seen = BTreeSet::new();
        let mut queue = vec![start];
        let mut first = true;
        while let Some(offset) = queue.pop() {
            if !seen.insert(offset) {
                return Err("the cross-reference chain loops".into());
            }
            if seen.len() > 1000 {
                return Err("too many cross-reference sections".into());
            }
            let trailer = self.read_xref_section(offset)?;
            if first {
                self.trailer = trailer.clone();
                first = false;
            }
            // Older sections (Prev) are read after the hybrid-file stream (XRefStm), so that
            // entries already known (newer) are kept.
            if let Some(Obj::Int(prev)) = get(&trailer, b"Prev") {
                queue.push(usize::try_from(*prev).map_err(|_| "bad /Prev")?);
            }
            if let Some(Obj::Int(stm)) = get(&trailer, b"XRefStm") {
                let stm = usize::try_from(*stm).map_err(|_| "bad /XRefStm")?;
                if seen.insert(stm) {
                    self.read_xref_section(stm)?;
                }
            }
        }
        Ok(())
    }

    fn add_entry(&mut self, num: u32, entry: Option<Entry>) {
        // The first section read is the newest: keep what is already there. A free entry
        // (None) also shadows older ones.
        self.xref
            .entry(num)
            .or_insert(entry.unwrap_or(Entry::Offset(usize::MAX)));
    }

    /// Reads one section (table or stream) at `offset`; returns its trailer dictionary.
    fn read_xref_section(&mut self, offset: usize) -> Result<Dict, String> {
        if offset >= self.data.len() {
            return Err("cross-reference offset beyond the end of the file".into());
        }
        let mut c = Cursor {
            b: self.data,
            i: offset,
        };
        c.skip_ws();
        if self.data[c.i..].starts_with(b"xref") {
            c.i += 4;
            loop {
                let save = c.i;
                if c.keyword() == Some(b"trailer") {
                    break;
                }
                c.i = save;
                let first = c.uint().ok_or("bad cross-reference subsection header")?;
                let count = c.uint().ok_or("bad cross-reference subsection header")?;
                if count > MAX_OBJECTS as u64 {
                    return Err("cross-reference subsection too large".into());
                }
                for k in 0..count {
                    let off = c.uint().ok_or("bad cross-reference entry")?;
                    let _gen = c.uint().ok_or("bad cross-reference entry")?;
                    let kind = c.keyword().ok_or("bad cross-reference entry")?;
                    let num = u32::try_from(first + k).map_err(|_| "object number too large")?;
                    match kind {
                        b"n" => self.add_entry(
                            num,
                            Some(Entry::Offset(
                                usize::try_from(off).map_err(|_| "bad offset")?,
                            )),
                        ),
                        b"f" => self.add_entry(num, None),
                        _ => return Err("bad cross-reference entry type".into()),
                    }
                }
            }
            match c.object(0)? {
                Obj::Dict(d) => Ok(d),
                _ => Err("`trailer` is not followed by a dictionary".into()),
            }
        } else {
            // A cross-reference stream: `n g obj << /Type /XRef ... >> stream`.
            let (_, obj) = self.indirect_at(offset)?;
            let Obj::Stream(dict, data_at) = obj else {
                return Err("no cross-reference table or stream at startxref".into());
            };
            if get(&dict, b"Type") != Some(&Obj::Name(b"XRef".to_vec())) {
                return Err("the object at startxref is not a cross-reference stream".into());
            }
            let data = self.stream_data(&dict, data_at)?;
            let w: Vec<usize> = match get(&dict, b"W") {
                Some(Obj::Array(a)) if a.len() == 3 => a
                    .iter()
                    .map(|x| match x {
                        Obj::Int(n) if (0..=8).contains(n) => Ok(*n as usize),
                        _ => Err("bad /W".to_string()),
                    })
                    .collect::<Result<_, _>>()?,
                _ => return Err("cross-reference stream without a valid /W".into()),
            };
            let size = match get(&dict, b"Size") {
                Some(Obj::Int(n)) if *n >= 0 => *n,
                _ => return Err("cross-reference stream without /Size".into()),
            };
            let index: Vec<i64> = match get(&dict, b"Index") {
                Some(Obj::Array(a)) => a
                    .iter()
                    .map(|x| match x {
                        Obj::Int(n) if *n >= 0 => Ok(*n),
                        _ => Err("bad /Index".to_string()),
                    })
                    .collect::<Result<_, _>>()?,
                _ => vec![0, size],
            };
            if !index.len().is_multiple_of(2) {
                return Err("bad /Index".into());
            }
            let row = w[0] + w[1] + w[2];
            if row == 0 {
                return Err("bad /W".into());
            }
            let mut pos = 0usize;
            for pair in index.chunks(2) {
                let (first, count) = (pair[0], pair[1]);
                for k in 0..count {
                    let Some(bytes) = data.get(pos..pos + row) else {
                        return Err("cross-reference stream shorter than its /Index".into());
                    };
                    pos += row;
                    let field = |from: usize, len: usize, default: u64| {
                        if len == 0 {
                            default
                        } else {
                            bytes[from..from + len]
                                .iter()
                                .fold(0u64, |acc, b| (acc << 8) | u64::from(*b))
                        }
                    };
                    let kind = field(0, w[0], 1);
                    let f2 = field(w[0], w[1], 0);
                    let f3 = field(w[0] + w[1], w[2], 0);
                    let num = u32::try_from(first + k).map_err(|_| "object number too large")?;
                    match kind {
                        0 => self.add_entry(num, None),
                        1 => self.add_entry(
                            num,
                            Some(Entry::Offset(
                                usize::try_from(f2).map_err(|_| "bad offset")?,
                            )),
                        ),
                        2 => self.add_entry(
                            num,
                            Some(Entry::InStream(
                                u32::try_from(f2).map_err(|_| "bad object stream number")?,
                                u32::try_from(f3).map_err(|_| "bad object stream index")?,
                            )),
                        ),
                        _ => {} // reserved types are ignored (PDF 32000-1 §7.5.8.3)
                    }
                }
            }
            Ok(dict)
        }
    }

    /// Parses `n g obj <object>` at `offset`.
    fn indirect_at(&mut self, offset: usize) -> Result<(u32, Obj), String> {
        self.count_object()?;
        let mut c = Cursor {
            b: self.data,
            i: offset,
        };
        let num = c.uint().ok_or("expected an object number")?;
        c.uint().ok_or("expected a generation number")?;
        c.expect_keyword(b"obj")?;
        let obj = c.object(0)?;
        Ok((
            u32::try_from(num).map_err(|_| "object number too large")?,
            obj,
        ))
    }

    /// The decoded data of a stream whose data starts at `at`.
    fn stream_data(&mut self, dict: &Dict, at: usize) -> Result<Vec<u8>, String> {
        let length = match get(dict, b"Length") {
            Some(Obj::Int(n)) if *n >= 0 => Some(*n as usize),
            Some(Obj::Ref(r)) => match self.resolve_depth(*r, 1)? {
                Obj::Int(n) if n >= 0 => Some(n as usize),
                _ => None,
            },
            _ => None,
        };
        let raw = match length
            .and_then(|n| at.checked_add(n))
            .filter(|end| *end <= self.data.len())
        {
            Some(end) => &self.data[at..end],
            None => {
                // Length unusable: the data ends before `endstream`.
                let end = self.data[at..]
                    .windows(9)
                    .position(|w| w == b"endstream")
                    .ok_or("stream without `endstream`")?;
                let mut e = at + end;
                if e > at && self.data[e - 1] == b'\n' {
                    e -= 1;
                }
                if e > at && self.data[e - 1] == b'\r' {
                    e -= 1;
                }
                &self.data[at..e]
            }
        };
        let filters: Vec<Vec<u8>> = match get(dict, b"Filter") {
            None => Vec::new(),
            Some(Obj::Name(n)) => vec![n.clone()],
            Some(Obj::Array(a)) => a
                .iter()
                .map(|x| match x {
                    Obj::Name(n) => Ok(n.clone()),
                    _ => Err("bad /Filter".to_string()),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err("bad /Filter".into()),
        };
        let mut data = raw.to_vec();
        for (k, f) in filters.iter().enumerate() {
            if f != b"FlateDecode" {
                return Err(format!(
                    "stream filter /{} is not supported",
                    String::from_utf8_lossy(f)
                ));
            }
            let limit = MAX_INFLATED_BYTES.saturating_sub(self.inflated);
            data = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&data, limit)
                .map_err(|e| format!("FlateDecode failed: {e:?}"))?;
            self.inflated += data.len();
            let parms = match get(dict, b"DecodeParms") {
                Some(Obj::Array(a)) => a.get(k).cloned(),
                other => other.cloned(),
            };
            if let Some(Obj::Dict(p)) = parms {
                data = unpredict(&p, data)?;
            }
        }
        Ok(data)
    }

    fn resolve(&mut self, num: u32) -> Result<Obj, String> {
        self.resolve_depth(num, 0)
    }

    fn resolve_depth(&mut self, num: u32, depth: usize) -> Result<Obj, String> {
        if depth > 4 {
            return Err("references nest too deeply".into());
        }
        match self.xref.get(&num).copied() {
            None | Some(Entry::Offset(usize::MAX)) => Ok(Obj::Null),
            Some(Entry::Offset(off)) => {
                if off >= self.data.len() {
                    return Err(format!("object {num} is beyond the end of the file"));
                }
                let (found, obj) = self.indirect_at(off)?;
                if found != num {
                    return Err(format!(
                        "object {num} expected at offset {off}, found {found}"
                    ));
                }
                Ok(obj)
            }
            Some(Entry::InStream(stream, index)) => {
                if !self.object_streams.contains_key(&stream) {
                    let objects = self.load_object_stream(stream, depth)?;
                    self.object_streams.insert(stream, objects);
                }
                let objects = self
                    .object_streams
                    .get(&stream)
                    .ok_or("object stream missing")?;
                match objects.get(index as usize) {
                    Some((n, obj)) if *n == num => Ok(obj.clone()),
                    _ => Err(format!("object {num} is not in object stream {stream}")),
                }
            }
        }
    }

    fn load_object_stream(&mut self, stream: u32, depth: usize) -> Result<Vec<(u32, Obj)>, String> {
        let Some(Entry::Offset(off)) = self.xref.get(&stream).copied() else {
            return Err(format!("object stream {stream} is not in the file"));
        };
        if off >= self.data.len() {
            return Err("object stream beyond the end of the file".into());
        }
        let (_, obj) = self.indirect_at(off)?;
        let Obj::Stream(dict, at) = obj else {
            return Err(format!("object {stream} is not an object stream"));
        };
        let _ = depth;
        let n = match get(&dict, b"N") {
            Some(Obj::Int(n)) if *n >= 0 && (*n as usize) <= MAX_OBJECTS => *n as usize,
            _ => return Err("object stream without /N".into()),
        };
        let first = match get(&dict, b"First") {
            Some(Obj::Int(f)) if *f >= 0 => *f as usize,
            _ => return Err("object stream without /First".into()),
        };
        let data = self.stream_data(&dict, at)?;
        let mut c = Cursor { b: &data, i: 0 };
        let mut header = Vec::with_capacity(n.min(4096));
        for _ in 0..n {
            let num = c.uint().ok_or("bad object stream header")?;
            let rel = c.uint().ok_or("bad object stream header")?;
            header.push((
                u32::try_from(num).map_err(|_| "object number too large")?,
                usize::try_from(rel).map_err(|_| "bad offset")?,
            ));
        }
        let mut out = Vec::with_capacity(header.len());
        for (num, rel) in header {
            self.count_object()?;
            let mut oc = Cursor {
                b: &data,
                i: first.checked_add(rel).ok_or("bad offset")?,
            };
            if oc.i > data.len() {
                return Err("object stream offset beyond its data".into());
            }
            out.push((num, oc.object(0)?));
        }
        Ok(out)
    }

    fn dict_of(&mut self, obj: Obj) -> Result<Dict, String> {
        match obj {
            Obj::Dict(d) | Obj::Stream(d, _) => Ok(d),
            Obj::Ref(r) => match self.resolve(r)? {
                Obj::Dict(d) | Obj::Stream(d, _) => Ok(d),
                _ => Err(format!("object {r} is not a dictionary")),
            },
            _ => Err("expected a dictionary".into()),
        }
    }

    fn count_pages(&mut self) -> Result<u64, String> {
        let root = get(&self.trailer, b"Root")
            .cloned()
            .ok_or("the trailer has no /Root")?;
        let catalog = self.dict_of(root)?;
        let pages = get(&catalog, b"Pages")
            .cloned()
            .ok_or("the catalog has no /Pages")?;
        let mut visited = BTreeSet::new();
        let mut stack = vec![pages];
        let mut count = 0u64;
        while let Some(node) = stack.pop() {
            if let Obj::Ref(r) = node
                && !visited.insert(r)
            {
                return Err("the page tree has a cycle".into());
            }
            self.count_object()?;
            let dict = self.dict_of(node)?;
            match get(&dict, b"Type") {
                Some(Obj::Name(t)) if t == b"Pages" => match get(&dict, b"Kids") {
                    Some(Obj::Array(kids)) => stack.extend(kids.iter().rev().cloned()),
                    _ => return Err("a /Pages node has no /Kids array".into()),
                },
                Some(Obj::Name(t)) if t == b"Page" => count += 1,
                _ => return Err("a page tree node has no /Type /Pages or /Page".into()),
            }
        }
        Ok(count)
    }
}

/// Undoes a PNG predictor (`/Predictor` 10-15) for 8-bit samples; `/Predictor 1` is none.
fn unpredict(parms: &Dict, data: Vec<u8>) -> Result<Vec<u8>, String> {
    let int = |k: &[u8], d: i64| match get(parms, k) {
        Some(Obj::Int(n)) => *n,
        _ => d,
    };
    let predictor = int(b"Predictor", 1);
    if predictor == 1 {
        return Ok(data);
    }
    if !(10..=15).contains(&predictor) {
        return Err(format!("predictor {predictor} is not supported"));
    }
    let colors = int(b"Colors", 1);
    let bpc = int(b"BitsPerComponent", 8);
    let columns = int(b"Columns", 1);
    if bpc != 8 || !(1..=4).contains(&colors) || !(1..=1 << 20).contains(&columns) {
        return Err("unsupported predictor parameters".into());
    }
    let bpp = colors as usize;
    let width = bpp * columns as usize;
    let mut out = Vec::with_capacity(data.len());
    let mut prev = vec![0u8; width];
    for row in data.chunks(width + 1) {
        if row.len() != width + 1 {
            return Err("predicted data is not a whole number of rows".into());
        }
        let (kind, raw) = (row[0], &row[1..]);
        let mut cur = vec![0u8; width];
        for x in 0..width {
            let a = if x >= bpp { cur[x - bpp] } else { 0 };
            let b = prev[x];
            let c = if x >= bpp { prev[x - bpp] } else { 0 };
            let pred = match kind {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => {
                    let p = i16::from(a) + i16::from(b) - i16::from(c);
                    let (pa, pb, pc) = (
                        (p - i16::from(a)).abs(),
                        (p - i16::from(b)).abs(),
                        (p - i16::from(c)).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                _ => return Err(format!("PNG filter type {kind} is not valid")),
            };
            cur[x] = raw[x].wrapping_add(pred);
        }
        out.extend_from_slice(&cur);
        prev = cur;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal classic PDF with `n` pages, its xref offsets computed while writing.
    fn classic(n: usize) -> Vec<u8> {
        let mut out = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", i + 3)).collect();
        let mut objs = vec![
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")),
        ];
        for _ in 0..n {
            objs.push("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>".into());
        }
        for (i, o) in objs.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
        }
        let xref = out.len();
        out.extend_from_slice(
            format!("xref\n0 {}\n0000000000 65535 f \n", objs.len() + 1).as_bytes(),
        );
        for o in offsets {
            out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
        }
        out.extend_from_slice(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                objs.len() + 1
            )
            .as_bytes(),
        );
        out
    }

    #[test]
    fn classic_xref_page_counts() {
        assert_eq!(page_count(&classic(1)), Ok(1));
        assert_eq!(page_count(&classic(3)), Ok(3));
    }

    #[test]
    fn broken_files_are_errors_not_panics() {
        assert!(page_count(b"").is_err());
        assert!(page_count(b"%PDF-1.4\nstartxref\n999999\n%%EOF").is_err());
        let mut cyc = classic(1);
        let text = String::from_utf8_lossy(&cyc).replace("/Kids [3 0 R]", "/Kids [2 0 R]");
        cyc = text.into_bytes();
        assert!(page_count(&cyc).is_err());
        let deep = format!(
            "%PDF-1.4\n1 0 obj\n{}\nendobj\nstartxref\n9\n",
            "[".repeat(100_000)
        );
        assert!(page_count(deep.as_bytes()).is_err());
        let full = classic(2);
        for cut in (0..full.len()).step_by(7) {
            let _ = page_count(&full[..cut]);
        }
    }
}
