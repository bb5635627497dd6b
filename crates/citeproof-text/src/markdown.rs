//! The markdown text model (profile ACA-L2-021): the text a reader of a `text/markdown` answer
//! sees, without its markup. Most LLM answers are markdown; a claim whose sentence carries
//! `**bold**`, `_emphasis_`, a `[link](url)` or `inline code` in the answer must still be found
//! in it.
//!
//! The document is parsed as CommonMark 0.31 by pulldown-cmark with no extension enabled.
//! M(d) is the concatenation, in document order, of: the content of every text and inline
//! code node (link texts included; link destinations and titles, and image descriptions, which
//! render as attributes, not), a line feed for every soft or hard line break, thematic break
//! and block end. Raw HTML (blocks and inline tags) is markup and contributes nothing. Pulldown-cmark parses in linear time in practice
//! (its fuzzing targets quadratic behaviour); the input is an agent response, at most 10 MiB
//! (FETCH-004).

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// M(d): the text of a CommonMark document, markup removed (see the module docs).
pub fn markdown_text(document: &str) -> String {
    let mut out = String::with_capacity(document.len());
    // Depth of images: their description is the `alt` attribute, not text of the page.
    let mut in_image = 0usize;
    for event in Parser::new_ext(document, Options::empty()) {
        match event {
            Event::Start(Tag::Image { .. }) => in_image += 1,
            Event::End(TagEnd::Image) => in_image = in_image.saturating_sub(1),
            Event::Text(_) | Event::Code(_) if in_image > 0 => {}
            Event::Text(text) | Event::Code(text) => out.push_str(&text),
            Event::SoftBreak | Event::HardBreak | Event::Rule => out.push('\n'),
            Event::End(end) if is_block(end) => out.push('\n'),
            _ => {}
        }
    }
    out
}

fn is_block(end: TagEnd) -> bool {
    !matches!(
        end,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize;

    #[test]
    fn markup_is_removed_by_hand() {
        // A tight list's items end with one line feed each, then the list ends; the HTML block
        // contributes its end only; `&amp;` and `\*` are the characters they stand for; the
        // image's description is an attribute, not text.
        let doc = "## Answer\n\n**Programmatic GEO templates** emit at most _one_ canonical\nquestion per \
                   [page](https://example.com/p \"t\").\n\n- AI crawlers `revisit` pages\n- with *stable* \
                   canonical URLs &amp; more\\*\n\n<div>raw</div>\n\n![alt text](x.png) and <b>tag</b> text";
        assert_eq!(
            markdown_text(doc),
            "Answer\nProgrammatic GEO templates emit at most one canonical\nquestion per page.\n\
             AI crawlers revisit pages\nwith stable canonical URLs & more*\n\n\n \
             and tag text\n"
        );
        assert_eq!(
            normalize(&markdown_text(doc)),
            "answer programmatic geo templates emit at most one canonical question per page. ai \
             crawlers revisit pages with stable canonical urls & more* and tag text"
        );
    }

    #[test]
    fn code_blocks_and_headings_are_text() {
        assert_eq!(
            markdown_text("Setext\n===\n\n    indented code\n\n```\nfenced\n```\n> quoted"),
            "Setext\nindented code\n\nfenced\n\nquoted\n\n"
        );
    }

    /// Inputs that make naive markdown parsers quadratic (unclosed brackets, emphasis runs,
    /// nested quotes and lists, backtick runs) are parsed in time linear in their size: each
    /// takes at most a few times as long at 256 KiB as at 32 KiB, per byte.
    #[test]
    fn pathological_inputs_stay_linear() {
        type Shape = (&'static str, fn(usize) -> String);
        let shapes: [Shape; 6] = [
            ("open brackets", |n| "[a".repeat(n / 2)),
            ("emphasis runs", |n| "*a_".repeat(n / 3)),
            ("nested quotes", |n| format!("{}a", ">".repeat(n))),
            ("nested lists", |n| {
                (0..n / 8)
                    .map(|i| format!("{}- a\n", " ".repeat(2 * (i % 64))))
                    .collect()
            }),
            ("backtick runs", |n| {
                (1..)
                    .map(|k| "`".repeat(k % 50) + "a")
                    .take(n / 26)
                    .collect()
            }),
            ("link definitions", |n| "[a]: <b\n".repeat(n / 8)),
        ];
        for (name, make) in shapes {
            let time = |n: usize| {
                let doc = make(n);
                let start = std::time::Instant::now();
                let text = markdown_text(&doc);
                (
                    start.elapsed().as_secs_f64() / doc.len().max(1) as f64,
                    text.len(),
                )
            };
            let (small, _) = time(32 * 1024);
            let (large, _) = time(256 * 1024);
            assert!(
                large < small * 8.0 + 1e-7,
                "{name}: {large:e} s/byte at 256 KiB against {small:e} at 32 KiB"
            );
        }
    }
}
