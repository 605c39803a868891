//! Path templates: the grammar's parser on arbitrary text, its canonical
//! form, and the router compiling what the grammar accepted.
//!
//! Properties: nothing panics; the canonical text of an accepted template
//! parses again to the same canonical text; a template the grammar accepts
//! either compiles into a router or is refused with an error.
#![no_main]

use http::Method;
use libfuzzer_sys::fuzz_target;
use restlight_core::router::{RouteEntry, Router};
use restlight_grammar::template::{join, Template};

fuzz_target!(|src: &str| {
    // Regexes are compiled by the regex crate under its own size limit;
    // long inputs only slow the search down.
    if src.len() > 512 {
        return;
    }
    let Ok(template) = Template::parse(src) else { return };
    let canonical = join([template.pieces()]);
    let again = Template::parse(&canonical)
        .unwrap_or_else(|e| panic!("canonical form {canonical:?} of {src:?} does not parse: {e:?}"));
    assert_eq!(join([again.pieces()]), canonical, "canonical form of {src:?} is not stable");

    let entry = RouteEntry {
        method: Method::GET,
        template: canonical.clone(),
        parsed: None,
        consumes: vec![],
        produces: vec![],
        location: "fuzz".into(),
        name: "fuzz".into(),
        conditions: Default::default(),
        precedence: Default::default(),
    };
    if let Ok((router, _)) = Router::new(&[entry]) {
        // The literal text of the template, variables left out: looked up
        // as a request path, it must answer without panicking.
        let _ = router.lookup(&Method::GET, &canonical, None, None);
    }
});
