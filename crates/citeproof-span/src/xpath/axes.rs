//! The thirteen axes (§2.2): the nodes of an axis from one context node, in axis order (reverse
//! document order for the reverse axes), every node visited charged to the budget.

use std::collections::HashSet;

use roxmltree::Node;

use super::ast::Axis;
use super::eval::{Eval, R};
use super::node::{XNode, ns_count, parent};

type Nodes<'a, 'i> = Vec<XNode<'a, 'i>>;

impl<'a, 'i> Eval<'a, 'i> {
    /// The nodes of `axis` from `node`, in axis order (reverse document order for reverse axes).
    pub(super) fn axis(&mut self, axis: Axis, node: XNode<'a, 'i>) -> R<Nodes<'a, 'i>> {
        match axis {
            Axis::SelfNode => Ok(vec![node]),
            Axis::Child => self.children(node),
            Axis::Descendant => self.descendants(node, false),
            Axis::DescendantOrSelf => self.descendants(node, true),
            Axis::Parent => Ok(parent(&node).map(XNode::Node).into_iter().collect()),
            Axis::Ancestor => self.ancestors(node, false),
            Axis::AncestorOrSelf => self.ancestors(node, true),
            Axis::FollowingSibling => self.siblings(node, Node::next_siblings),
            Axis::PrecedingSibling => self.siblings(node, Node::prev_siblings),
            Axis::Following => self.following(node),
            Axis::Preceding => self.preceding(node),
            Axis::Attribute => self.owned_nodes(node, |e| e.attributes().len(), XNode::Attr),
            Axis::Namespace => self.owned_nodes(node, |e| ns_count(e), XNode::Ns),
        }
    }

    /// Pushes `nodes` onto `out`, one budget unit each.
    fn collect_into(
        &mut self,
        out: &mut Nodes<'a, 'i>,
        nodes: impl Iterator<Item = Node<'a, 'i>>,
    ) -> R<()> {
        for n in nodes {
            self.charge(1)?;
            out.push(XNode::Node(n));
        }
        Ok(())
    }

    fn children(&mut self, node: XNode<'a, 'i>) -> R<Nodes<'a, 'i>> {
        let mut out = Vec::new();
        if let Some(n) = node.element_like() {
            self.collect_into(&mut out, n.children())?;
        }
        Ok(out)
    }

    fn descendants(&mut self, node: XNode<'a, 'i>, or_self: bool) -> R<Nodes<'a, 'i>> {
        let mut out = Vec::new();
        if or_self {
            out.push(node);
        }
        if let Some(n) = node.element_like() {
            self.collect_into(&mut out, n.descendants().skip(1))?;
        }
        Ok(out)
    }

    fn ancestors(&mut self, node: XNode<'a, 'i>, or_self: bool) -> R<Nodes<'a, 'i>> {
        let mut out = Vec::new();
        if or_self {
            out.push(node);
        }
        if let Some(p) = parent(&node) {
            self.collect_into(&mut out, p.ancestors())?;
        }
        Ok(out)
    }

    /// `following-sibling` or `preceding-sibling` (`walk` is roxmltree's sibling iterator, which
    /// starts with the node itself). Attribute and namespace nodes have no siblings.
    fn siblings<I>(&mut self, node: XNode<'a, 'i>, walk: fn(&Node<'a, 'i>) -> I) -> R<Nodes<'a, 'i>>
    where
        I: Iterator<Item = Node<'a, 'i>>,
    {
        let mut out = Vec::new();
        if let XNode::Node(n) = node {
            self.collect_into(&mut out, walk(&n).skip(1))?;
        }
        Ok(out)
    }

    fn following(&mut self, node: XNode<'a, 'i>) -> R<Nodes<'a, 'i>> {
        let mut out = Vec::new();
        // Attribute and namespace nodes are followed by their element's content.
        let start = match node {
            XNode::Node(n) => n,
            XNode::Attr(e, _) | XNode::Ns(e, _) => {
                self.collect_into(&mut out, e.descendants().skip(1))?;
                e
            }
        };
        let mut cur = Some(start);
        while let Some(a) = cur {
            for s in a.next_siblings().skip(1) {
                self.collect_into(&mut out, s.descendants())?;
            }
            cur = a.parent();
        }
        Ok(out)
    }

    fn preceding(&mut self, node: XNode<'a, 'i>) -> R<Nodes<'a, 'i>> {
        let mut out = Vec::new();
        let target = match node {
            XNode::Node(n) => n,
            XNode::Attr(e, _) | XNode::Ns(e, _) => e,
        };
        let ancestors: HashSet<u32> = target.ancestors().map(|a| a.id().get()).collect();
        let limit = target.id().get();
        for d in self.doc.root().descendants() {
            self.charge(1)?;
            let id = d.id().get();
            if id >= limit {
                break;
            }
            if !ancestors.contains(&id) {
                out.push(XNode::Node(d));
            }
        }
        out.reverse();
        Ok(out)
    }

    /// The attribute or namespace nodes of an element (`count` of them, made by `make`); other
    /// nodes have none.
    fn owned_nodes(
        &mut self,
        node: XNode<'a, 'i>,
        count: impl Fn(&Node<'a, 'i>) -> usize,
        make: fn(Node<'a, 'i>, usize) -> XNode<'a, 'i>,
    ) -> R<Nodes<'a, 'i>> {
        let mut out = Vec::new();
        if let XNode::Node(n) = node
            && n.is_element()
        {
            for i in 0..count(&n) {
                self.charge(1)?;
                out.push(make(n, i));
            }
        }
        Ok(out)
    }
}
