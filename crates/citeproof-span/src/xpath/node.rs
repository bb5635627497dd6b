//! The data model (§5) over roxmltree: nodes, their string-values and expanded names, namespace
//! nodes (roxmltree's in-scope namespaces plus the implicit `xml` one) and node tests (§2.3).

use roxmltree::{Node, NodeType};

use super::XML_NS;
use super::ast::{Axis, NodeTest};
use super::error::EvalError;

/// An XPath node: a roxmltree node, or an attribute / namespace node of an element.
#[derive(Debug, Clone, Copy)]
pub enum XNode<'a, 'i> {
    /// The root, an element, a text, comment or processing-instruction node.
    Node(Node<'a, 'i>),
    /// The attribute of an element with this index.
    Attr(Node<'a, 'i>, usize),
    /// The namespace node of an element with this index: its in-scope namespaces in
    /// roxmltree order, then the implicit `xml` one when roxmltree does not list it.
    Ns(Node<'a, 'i>, usize),
}

impl<'a, 'i> XNode<'a, 'i> {
    /// A key in document order: the element, then its namespace nodes, then its attributes.
    pub(super) fn key(&self) -> (u32, u8, usize) {
        match self {
            XNode::Node(n) => (n.id().get(), 0, 0),
            XNode::Ns(e, i) => (e.id().get(), 1, *i),
            XNode::Attr(e, i) => (e.id().get(), 2, *i),
        }
    }

    /// The node when children can be below it (the root or an element).
    pub(super) fn element_like(&self) -> Option<Node<'a, 'i>> {
        match self {
            XNode::Node(n) if n.is_element() || n.is_root() => Some(*n),
            _ => None,
        }
    }

    /// The expanded name (§5): (namespace URI, local name).
    pub(super) fn expanded_name(&self) -> Option<(Option<&'a str>, String)> {
        match self {
            XNode::Node(n) => match n.node_type() {
                NodeType::Element => {
                    let t = n.tag_name();
                    Some((t.namespace(), t.name().to_owned()))
                }
                NodeType::PI => n.pi().map(|pi| (None, pi.target.to_owned())),
                _ => None,
            },
            XNode::Attr(e, i) => e
                .attributes()
                .nth(*i)
                .map(|a| (a.namespace(), a.name().to_owned())),
            XNode::Ns(e, i) => ns_at(e, *i).map(|(prefix, _)| (None, prefix.to_owned())),
        }
    }

    pub(super) fn is_text(&self) -> bool {
        matches!(self, XNode::Node(n) if n.is_text())
    }
}

impl PartialEq for XNode<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for XNode<'_, '_> {}

/// not, although the XPath data model gives every element a namespace node for it).
fn lists_xml(e: &Node<'_, '_>) -> bool {
    e.namespaces().any(|ns| ns.name() == Some("xml"))
}

/// Number of namespace nodes of an element: roxmltree's in-scope namespaces plus `xml`.
pub(super) fn ns_count(e: &Node<'_, '_>) -> usize {
    e.namespaces().len() + usize::from(!lists_xml(e))
}

/// The i-th namespace node of an element: (prefix, `""` for the default namespace; URI).
fn ns_at<'a>(e: &Node<'a, '_>, i: usize) -> Option<(&'a str, &'a str)> {
    let listed = e.namespaces().len();
    if i < listed {
        e.namespaces()
            .nth(i)
            .map(|ns| (ns.name().unwrap_or(""), ns.uri()))
    } else if i == listed && !lists_xml(e) {
        Some(("xml", XML_NS))
    } else {
        None
    }
}

pub(super) fn parent<'a, 'i>(node: &XNode<'a, 'i>) -> Option<Node<'a, 'i>> {
    match node {
        XNode::Node(n) => n.parent(),
        XNode::Attr(e, _) | XNode::Ns(e, _) => Some(*e),
    }
}

pub(super) fn matches_test(test: &NodeTest, axis: Axis, node: &XNode<'_, '_>) -> bool {
    match test {
        NodeTest::Node => true,
        NodeTest::Text => node.is_text(),
        NodeTest::Comment => matches!(node, XNode::Node(n) if n.is_comment()),
        NodeTest::Pi(target) => match node {
            XNode::Node(n) => match n.pi() {
                Some(pi) => target.as_deref().is_none_or(|t| t == pi.target),
                None => false,
            },
            _ => false,
        },
        NodeTest::Name { any_ns, ns, local } => {
            // The principal node type of the axis (§2.3).
            let principal = match axis {
                Axis::Attribute => matches!(node, XNode::Attr(..)),
                Axis::Namespace => matches!(node, XNode::Ns(..)),
                _ => matches!(node, XNode::Node(n) if n.is_element()),
            };
            if !principal {
                return false;
            }
            let Some((node_ns, node_local)) = node.expanded_name() else {
                return false;
            };
            if !*any_ns && node_ns != ns.as_deref() {
                return false;
            }
            local.as_deref().is_none_or(|l| l == node_local)
        }
    }
}

/// `name()`: the QName with the prefix in scope for the namespace (§4.1).
pub(super) fn qname(node: &XNode<'_, '_>) -> String {
    let Some((ns, local)) = node.expanded_name() else {
        return String::new();
    };
    let (Some(ns), Some(scope)) = (ns, parent_or_self_element(node)) else {
        return local;
    };
    match scope.lookup_prefix(ns) {
        Some(p) if !p.is_empty() => format!("{p}:{local}"),
        _ => local,
    }
}

fn parent_or_self_element<'a, 'i>(node: &XNode<'a, 'i>) -> Option<Node<'a, 'i>> {
    match node {
        XNode::Node(n) if n.is_element() => Some(*n),
        XNode::Node(n) => n.parent_element(),
        XNode::Attr(e, _) | XNode::Ns(e, _) => Some(*e),
    }
}

/// `lang()` (§4.3): the nearest `xml:lang` equals the argument or is a sublanguage of it,
/// ignoring ASCII case.
pub(super) fn lang_matches(node: &XNode<'_, '_>, want: &str) -> bool {
    let mut cur = parent_or_self_element(node);
    while let Some(e) = cur {
        if let Some(value) = e.attribute((XML_NS, "lang")) {
            let v = value.to_ascii_lowercase();
            let w = want.to_ascii_lowercase();
            return v == w || (v.starts_with(&w) && v[w.len()..].starts_with('-'));
        }
        cur = e.parent_element();
    }
    false
}

/// The string-value of a node (§5).
pub fn string_value(node: &XNode<'_, '_>) -> String {
    let mut unlimited = u64::MAX;
    string_value_budget(node, &mut unlimited).unwrap_or_default()
}

/// The string-value of a node, under a work budget.
pub(super) fn string_value_budget(
    node: &XNode<'_, '_>,
    budget: &mut u64,
) -> Result<String, EvalError> {
    Ok(match node {
        XNode::Node(n) => match n.node_type() {
            NodeType::Root | NodeType::Element => {
                let mut out = String::new();
                for d in n.descendants() {
                    charge(budget, 1)?;
                    if d.is_text() {
                        let t = d.text().unwrap_or("");
                        charge(budget, t.len() as u64 / 64)?;
                        out.push_str(t);
                    }
                }
                out
            }
            NodeType::Text | NodeType::Comment => n.text().unwrap_or("").to_owned(),
            NodeType::PI => n.pi().and_then(|p| p.value).unwrap_or("").to_owned(),
        },
        XNode::Attr(e, i) => e
            .attributes()
            .nth(*i)
            .map(|a| a.value().to_owned())
            .unwrap_or_default(),
        XNode::Ns(e, i) => ns_at(e, *i)
            .map(|(_, uri)| uri.to_owned())
            .unwrap_or_default(),
    })
}

/// Takes `n` units from a work budget, or fails (and empties it) when fewer are left.
pub(super) fn charge(budget: &mut u64, n: u64) -> Result<(), EvalError> {
    if *budget < n {
        *budget = 0;
        return Err(EvalError::Budget);
    }
    *budget -= n;
    Ok(())
}

/// One past the largest node id in the subtree of `n` (ids follow document order).
pub(super) fn subtree_end(n: &Node<'_, '_>) -> u32 {
    let mut last = *n;
    while let Some(child) = last.last_child() {
        last = child;
    }
    last.id().get().saturating_add(1)
}

/// Sorts nodes into document order and drops duplicates.
pub(super) fn sort_dedup(nodes: &mut Vec<XNode<'_, '_>>) {
    nodes.sort_by_key(XNode::key);
    nodes.dedup();
}
