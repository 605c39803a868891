//! Compile-time behaviour of the attribute macros: `tests/ui/<macro>/pass`
//! must build (and run), `tests/ui/<macro>/fail` must fail with exactly the
//! blessed `.stderr` (re-bless with `TRYBUILD=overwrite cargo test --test ui`).

#[test]
#[cfg_attr(not(feature = "validation"), ignore = "the UI cases use `#[valid]`, which needs the `validation` feature")]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/*/pass/*.rs");
    t.compile_fail("tests/ui/*/fail/*.rs");
}
