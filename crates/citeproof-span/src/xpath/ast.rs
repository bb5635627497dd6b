//! The syntax tree of an expression (§2 location paths, §3 expressions), and the core function
//! library's names and argument counts (§4).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Axis {
    Ancestor,
    AncestorOrSelf,
    Attribute,
    Child,
    Descendant,
    DescendantOrSelf,
    Following,
    FollowingSibling,
    Namespace,
    Parent,
    Preceding,
    PrecedingSibling,
    SelfNode,
}

impl Axis {
    pub(super) fn from_name(name: &str) -> Option<Axis> {
        Some(match name {
            "ancestor" => Axis::Ancestor,
            "ancestor-or-self" => Axis::AncestorOrSelf,
            "attribute" => Axis::Attribute,
            "child" => Axis::Child,
            "descendant" => Axis::Descendant,
            "descendant-or-self" => Axis::DescendantOrSelf,
            "following" => Axis::Following,
            "following-sibling" => Axis::FollowingSibling,
            "namespace" => Axis::Namespace,
            "parent" => Axis::Parent,
            "preceding" => Axis::Preceding,
            "preceding-sibling" => Axis::PrecedingSibling,
            "self" => Axis::SelfNode,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum NodeTest {
    /// A name test: namespace URI (`None` = no namespace) unless `any_ns`, local name unless `*`.
    Name {
        any_ns: bool,
        ns: Option<String>,
        local: Option<String>,
    },
    Node,
    Text,
    Comment,
    Pi(Option<String>),
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Step {
    pub(super) axis: Axis,
    pub(super) test: NodeTest,
    pub(super) predicates: Vec<Ast>,
}

/// A function of the core library (§4), by the section that defines it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Func {
    NodeSet(NodeSetFn),
    String(StringFn),
    Boolean(BooleanFn),
    Number(NumberFn),
}

/// §4.1 node-set functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NodeSetFn {
    Last,
    Position,
    Count,
    Id,
    LocalName,
    NamespaceUri,
    Name,
}

/// §4.2 string functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum StringFn {
    String,
    Concat,
    StartsWith,
    Contains,
    SubstringBefore,
    SubstringAfter,
    Substring,
    StringLength,
    NormalizeSpace,
    Translate,
}

/// §4.3 boolean functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BooleanFn {
    Boolean,
    Not,
    True,
    False,
    Lang,
}

/// §4.4 number functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NumberFn {
    Number,
    Sum,
    Floor,
    Ceiling,
    Round,
}

impl Func {
    /// The core function library (§4) with argument counts (min, max).
    pub(super) fn lookup(name: &str) -> Option<(Func, usize, usize)> {
        use {BooleanFn as B, NodeSetFn as N, NumberFn as M, StringFn as S};
        let (func, min, max) = match name {
            "last" => (Func::NodeSet(N::Last), 0, 0),
            "position" => (Func::NodeSet(N::Position), 0, 0),
            "count" => (Func::NodeSet(N::Count), 1, 1),
            "id" => (Func::NodeSet(N::Id), 1, 1),
            "local-name" => (Func::NodeSet(N::LocalName), 0, 1),
            "namespace-uri" => (Func::NodeSet(N::NamespaceUri), 0, 1),
            "name" => (Func::NodeSet(N::Name), 0, 1),
            "string" => (Func::String(S::String), 0, 1),
            "concat" => (Func::String(S::Concat), 2, usize::MAX),
            "starts-with" => (Func::String(S::StartsWith), 2, 2),
            "contains" => (Func::String(S::Contains), 2, 2),
            "substring-before" => (Func::String(S::SubstringBefore), 2, 2),
            "substring-after" => (Func::String(S::SubstringAfter), 2, 2),
            "substring" => (Func::String(S::Substring), 2, 3),
            "string-length" => (Func::String(S::StringLength), 0, 1),
            "normalize-space" => (Func::String(S::NormalizeSpace), 0, 1),
            "translate" => (Func::String(S::Translate), 3, 3),
            "boolean" => (Func::Boolean(B::Boolean), 1, 1),
            "not" => (Func::Boolean(B::Not), 1, 1),
            "true" => (Func::Boolean(B::True), 0, 0),
            "false" => (Func::Boolean(B::False), 0, 0),
            "lang" => (Func::Boolean(B::Lang), 1, 1),
            "number" => (Func::Number(M::Number), 0, 1),
            "sum" => (Func::Number(M::Sum), 1, 1),
            "floor" => (Func::Number(M::Floor), 1, 1),
            "ceiling" => (Func::Number(M::Ceiling), 1, 1),
            "round" => (Func::Number(M::Round), 1, 1),
            _ => return None,
        };
        Some((func, min, max))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Ast {
    Or(Box<Ast>, Box<Ast>),
    And(Box<Ast>, Box<Ast>),
    Compare(Cmp, Box<Ast>, Box<Ast>),
    Arith(Arith, Box<Ast>, Box<Ast>),
    Negate(Box<Ast>),
    Union(Box<Ast>, Box<Ast>),
    /// A location path.
    Path {
        absolute: bool,
        steps: Vec<Step>,
    },
    /// FilterExpr, optionally followed by `/` steps (a `//` is a descendant-or-self step).
    Filter {
        primary: Box<Ast>,
        predicates: Vec<Ast>,
        steps: Vec<Step>,
    },
    Literal(String),
    Number(f64),
    Call(Func, Vec<Ast>),
}

/// A parsed XPath 1.0 expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr(pub(super) Ast);
