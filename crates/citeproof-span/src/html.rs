//! HTML as the profile reads it ("HTML text" in the AI Evidence Format section): the WHATWG
//! parsing algorithm (html5ever through `scraper`, scripting flag enabled) and the text T(n) of a
//! node: its Text descendants outside `script`, `style`, `noscript` and `template`, concatenated,
//! ASCII whitespace collapsed to single spaces and trimmed.
//!
//! Template contents are not part of the document tree (HTML §4.12.3): elements inside a
//! `template` are never paragraphs or CSS matches.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use ego_tree::{NodeId, NodeRef};
use html5ever::driver::{ParseOpts, parse_document};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::{Attribute, QualName};
use scraper::{Html, HtmlTreeSink, Node};

use crate::limits::MAX_HTML_DEPTH;
use crate::text::collapse_ascii_whitespace;

/// Input is fed to the parser in pieces of this many bytes, so that a document that goes too
/// deep is abandoned soon after it does.
const PARSE_CHUNK: usize = 16 * 1024;

/// `scraper`'s tree sink with every node's depth recorded: the parse stops being fed once an
/// element is appended deeper than [`MAX_HTML_DEPTH`].
struct DepthSink {
    inner: HtmlTreeSink,
    depth: RefCell<HashMap<NodeId, usize>>,
    too_deep: Cell<bool>,
}

impl DepthSink {
    fn depth_of(&self, node: &NodeId) -> usize {
        self.depth.borrow().get(node).copied().unwrap_or(0)
    }

    fn placed(&self, child: &NodeOrText<NodeId>, depth: usize) {
        if let NodeOrText::AppendNode(id) = child {
            self.depth.borrow_mut().insert(*id, depth);
            if depth > MAX_HTML_DEPTH {
                self.too_deep.set(true);
            }
        }
    }
}

impl TreeSink for DepthSink {
    type Output = Self;
    type Handle = NodeId;
    type ElemName<'a> = <HtmlTreeSink as TreeSink>::ElemName<'a>;

    fn finish(self) -> Self {
        self
    }
    fn parse_error(&self, msg: Cow<'static, str>) {
        self.inner.parse_error(msg);
    }
    fn get_document(&self) -> NodeId {
        self.inner.get_document()
    }
    fn elem_name<'a>(&'a self, target: &'a NodeId) -> Self::ElemName<'a> {
        self.inner.elem_name(target)
    }
    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> NodeId {
        self.inner.create_element(name, attrs, flags)
    }
    fn create_comment(&self, text: StrTendril) -> NodeId {
        self.inner.create_comment(text)
    }
    fn create_pi(&self, target: StrTendril, data: StrTendril) -> NodeId {
        self.inner.create_pi(target, data)
    }
    fn append(&self, parent: &NodeId, child: NodeOrText<NodeId>) {
        self.placed(&child, self.depth_of(parent) + 1);
        self.inner.append(parent, child);
    }
    fn append_based_on_parent_node(
        &self,
        element: &NodeId,
        prev_element: &NodeId,
        child: NodeOrText<NodeId>,
    ) {
        let depth = self.depth_of(element).max(self.depth_of(prev_element) + 1);
        self.placed(&child, depth);
        self.inner
            .append_based_on_parent_node(element, prev_element, child);
    }
    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    ) {
        self.inner
            .append_doctype_to_document(name, public_id, system_id);
    }
    fn mark_script_already_started(&self, node: &NodeId) {
        self.inner.mark_script_already_started(node);
    }
    fn get_template_contents(&self, target: &NodeId) -> NodeId {
        self.inner.get_template_contents(target)
    }
    fn same_node(&self, x: &NodeId, y: &NodeId) -> bool {
        self.inner.same_node(x, y)
    }
    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.inner.set_quirks_mode(mode);
    }
    fn append_before_sibling(&self, sibling: &NodeId, new_node: NodeOrText<NodeId>) {
        self.placed(&new_node, self.depth_of(sibling));
        self.inner.append_before_sibling(sibling, new_node);
    }
    fn add_attrs_if_missing(&self, target: &NodeId, attrs: Vec<Attribute>) {
        self.inner.add_attrs_if_missing(target, attrs);
    }
    fn remove_from_parent(&self, target: &NodeId) {
        self.inner.remove_from_parent(target);
    }
    fn reparent_children(&self, node: &NodeId, new_parent: &NodeId) {
        self.inner.reparent_children(node, new_parent);
    }
}

/// An HTML document nests elements deeper than [`MAX_HTML_DEPTH`] (`aef-source-unparseable`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the HTML nests elements deeper than {MAX_HTML_DEPTH} levels")]
pub struct TooDeep;

/// Parses `text` with the WHATWG algorithm, giving up when elements nest deeper than
/// [`MAX_HTML_DEPTH`].
fn parse_bounded(text: &str) -> Result<Html, TooDeep> {
    let sink = DepthSink {
        inner: HtmlTreeSink::new(Html::new_document()),
        depth: RefCell::new(HashMap::new()),
        too_deep: Cell::new(false),
    };
    let mut parser = parse_document(sink, ParseOpts::default());
    let mut rest = text;
    while !rest.is_empty() {
        let mut cut = rest.len().min(PARSE_CHUNK);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (piece, tail) = rest.split_at(cut);
        parser.process(StrTendril::from_slice(piece));
        rest = tail;
        if parser.tokenizer.sink.sink.too_deep.get() {
            return Err(TooDeep);
        }
    }
    let sink = parser.finish();
    if sink.too_deep.get() {
        return Err(TooDeep);
    }
    Ok(sink.inner.finish())
}

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
    /// Parses UTF-8 text as an HTML document. HTML parsing recovers from every syntax error;
    /// the only failure is nesting deeper than [`MAX_HTML_DEPTH`] (an `aef-source-unparseable`). A leading byte order mark is not content: the WHATWG decode
    /// algorithm removes it before the parser runs.
    pub fn parse(text: &str) -> Result<HtmlDoc, TooDeep> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Ok(HtmlDoc {
            html: parse_bounded(text)?,
        })
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

    /// The texts T(e) of at most `limit` elements a (validated) selector matches, in tree
    /// order: a caller that needs one match asks for two and never pays for the texts of a
    /// thousand.
    pub fn select_texts(&self, selector: &scraper::Selector, limit: usize) -> Vec<String> {
        self.html
            .select(selector)
            .filter(|e| !in_template(e))
            .take(limit)
            .map(|e| text_of(*e))
            .collect()
    }
}

fn is_html_ns(e: &scraper::node::Element) -> bool {
    &*e.name.ns == "http://www.w3.org/1999/xhtml"
}

/// T(n): see the module documentation. Iterative, so deep trees cannot overflow the stack.
fn text_of(node: NodeRef<'_, Node>) -> String {
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
        )
        .unwrap();
        // T concatenates text nodes: nothing separates `c` and `d&e` (no whitespace between the
        // paragraphs), exactly like DOM `textContent`.
        assert_eq!(doc.document_text(), "T a b cd&e");
        assert_eq!(doc.paragraphs(), ["a b c", "d&e"]);
    }

    #[test]
    fn a_byte_order_mark_is_not_text() {
        let doc = HtmlDoc::parse("\u{feff}<p>x</p>").unwrap();
        assert_eq!(doc.document_text(), "x");
        assert!(crate::xml::parse("\u{feff}<a>x</a>").is_ok());
    }

    #[test]
    fn css_matches_outside_templates() {
        let doc = HtmlDoc::parse("<p class=x>1</p><template><p class=x>2</p></template>").unwrap();
        let sel = scraper::Selector::parse("p.x").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(doc.select_texts(&sel, usize::MAX), ["1"]);
    }

    #[test]
    fn nesting_is_bounded() {
        // 512 nested divs parse; 513 do not (the document and body count as two levels).
        let ok = format!(
            "<!doctype html><body>{}x",
            "<div>".repeat(MAX_HTML_DEPTH - 2)
        );
        assert!(HtmlDoc::parse(&ok).is_ok());
        let deep = format!(
            "<!doctype html><body>{}x",
            "<div>".repeat(MAX_HTML_DEPTH - 1)
        );
        let err = HtmlDoc::parse(&deep).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the HTML nests elements deeper than 512 levels"
        );
        // Siblings are not depth: a million flat paragraphs are fine.
        let flat = "<p>x</p>".repeat(20_000);
        assert_eq!(HtmlDoc::parse(&flat).unwrap().paragraphs().len(), 20_000);
    }

    #[test]
    fn unclosed_paragraphs_do_not_nest() {
        // `<p>` closes the open `<p>`: 2000 unclosed paragraphs are 2000 siblings.
        let doc = HtmlDoc::parse(&"<p>a".repeat(2000)).unwrap();
        assert_eq!(doc.paragraphs().len(), 2000);
    }
}
