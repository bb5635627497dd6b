//! The Level 3 grammar check against hand-picked selectors: Level 3 accepted, Level 4, pseudo-
//! elements, dynamic pseudo-classes and undeclared namespace prefixes refused.

use super::check;

#[test]
fn level_3_selectors_are_accepted() {
    for good in [
        "p",
        "*",
        "article > p.lead",
        "#main .item:nth-child(2n+1), aside p",
        "a[href]",
        "a[href^='https'][rel~=\"nofollow\"]",
        "[lang|=en]",
        "h1 + p ~ ul",
        "p:first-child",
        "li:nth-last-of-type( -n + 3 )",
        "tr:nth-child(odd)",
        "tr:NTH-CHILD(EVEN)",
        "p:not(.x)",
        "p:not([data-x])",
        "p:not(:first-child)",
        "*|p",
        "|p",
        "*|*",
        "[*|lang]",
        " p ",
        "p/* comment */.x",
        "div\\:x",
        ".\\31 a",
        "p:nth-child(3)",
        "p:nth-child(-2n-1)",
        "p:nth-child(+5)",
        "p:nth-child(n)",
        "p:empty",
        "div :root",
    ] {
        assert!(check(good).is_ok(), "{good:?}: {:?}", check(good).err());
    }
}

#[test]
fn other_selectors_are_refused() {
    for bad in [
        "",
        " ",
        "p::before",
        "p:before",
        "p:first-line",
        "div[data-x",
        "div >",
        "> p",
        "p,",
        ",p",
        "p:is(a)",
        "p:has(a)",
        "p:where(a)",
        "p:not(a b)",
        "p:not(:not(a))",
        "a:hover",
        "a:link",
        "p:lang(en)",
        "input:checked",
        "svg|rect",
        "[xlink|href]",
        "[a='x' i]",
        "p:nth-child(2n+)",
        "p:nth-child(n2)",
        "p:nth-child()",
        "p:nth-child(foo)",
        "p..x",
        "p#",
        "p!",
        "a || b",
        "p:nth-child(2 n)",
        "/* x",
        "[a=b c]",
        "p:scope",
        "p:nth-child(2n + 1 of p)",
    ] {
        assert!(check(bad).is_err(), "{bad:?} should be refused");
    }
}
