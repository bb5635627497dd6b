//! HTML as the profile reads it ("HTML text" in the AI Evidence Format section): the WHATWG
//! parsing algorithm (html5ever through `scraper`, scripting flag enabled) and the text T(n) of a
//! node: its Text descendants outside `script`, `style`, `noscript` and `template`, concatenated,
//! ASCII whitespace collapsed to single spaces and trimmed.
//!
//! Template contents are not part of the document tree (HTML §4.12.3): elements inside a
//! `template` are never paragraphs or CSS matches.

use ego_tree::NodeRef;
use scraper::{Html, Node};

use crate::text::collapse_ascii_whitespace;

/// A parsed HTML document.
pub struct HtmlDoc {
    html: Html,
}

impl std::fmt::Debug for HtmlDoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HtmlDoc").finish_non_exhaustive()
    }
}

const EXCLUDED: &[&str] = &["script", "style", "noscript", "template"];

fn is_excluded_element(node: &NodeRef<'_, Node>) -> bool {
    match node.value() {
        Node::Element(e) => EXCLUDED.contains(&e.name()),
        Node::Fragment => true,
        _ => false,
    }
}

/// Whether a node is inside template contents (or is such a fragment).
fn in_template(node: &NodeRef<'_, Node>) -> bool {
    node.ancestors().any(|a| {
        matches!(a.value(), Node::Fragment)
            || matches!(a.value(), Node::Element(e) if e.name() == "template")
    })
}

impl HtmlDoc {
    /// Parses UTF-8 text as an HTML document (never fails: HTML parsing recovers from errors).
    /// A leading byte order mark is not content: the WHATWG decode algorithm removes it before
    /// the parser runs.
    pub fn parse(text: &str) -> HtmlDoc {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        HtmlDoc {
            html: Html::parse_document(text),
        }
    }

    /// T(document).
    pub fn document_text(&self) -> String {
        text_of(self.html.tree.root())
    }

    /// AEF-L2-005 for HTML: T(p) of every `p` element in tree order.
    pub fn paragraphs(&self) -> Vec<String> {
        self.html
            .tree
            .root()
            .descendants()
            .filter(|n| matches!(n.value(), Node::Element(e) if e.name() == "p" && is_html_ns(e)))
            .filter(|n| !in_template(n))
            .map(text_of)
            .collect()
    }

    /// The texts T(e) of the elements a (validated) selector matches, in tree order.
    pub fn select_texts(&self, selector: &scraper::Selector) -> Vec<String> {
        self.html
            .select(selector)
            .filter(|e| !in_template(e))
            .map(|e| text_of(*e))
            .collect()
    }
}

fn is_html_ns(e: &scraper::node::Element) -> bool {
    &*e.name.ns == "http://www.w3.org/1999/xhtml"
}

/// T(n): see the module documentation. Iterative, so deep trees cannot overflow the stack.
pub fn text_of(node: NodeRef<'_, Node>) -> String {
    if node.ancestors().any(|a| is_excluded_element(&a)) || is_excluded_element(&node) {
        return String::new();
    }
    let mut raw = String::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.value() {
            Node::Text(t) => raw.push_str(t),
            _ if is_excluded_element(&n) => {}
            _ => {
                // Children in reverse so that they pop in tree order.
                let children: Vec<_> = n.children().collect();
                stack.extend(children.into_iter().rev());
            }
        }
    }
    collapse_ascii_whitespace(&raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_skips_scripts_and_collapses_whitespace() {
        let doc = HtmlDoc::parse(
            "<!doctype html><title> T </title><p>a <b>b</b>\n c</p><script>x</script><style>y</style>\
             <noscript><p>n</p></noscript><template><p>t</p></template><p>d&amp;e</p>",
        );
        // T concatenates text nodes: nothing separates `c` and `d&e` (no whitespace between the
        // paragraphs), exactly like DOM `textContent`.
        assert_eq!(doc.document_text(), "T a b cd&e");
        assert_eq!(doc.paragraphs(), ["a b c", "d&e"]);
    }

    #[test]
    fn a_byte_order_mark_is_not_text() {
        let doc = HtmlDoc::parse("\u{feff}<p>x</p>");
        assert_eq!(doc.document_text(), "x");
        assert!(crate::xml::parse("\u{feff}<a>x</a>").is_ok());
    }

    #[test]
    fn css_matches_outside_templates() {
        let doc = HtmlDoc::parse("<p class=x>1</p><template><p class=x>2</p></template>");
        let sel = scraper::Selector::parse("p.x").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(doc.select_texts(&sel), ["1"]);
    }
}
