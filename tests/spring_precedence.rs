//! Spring's `PathPattern` precedence, through the mock client: routes of a
//! controller are ordered as `PathPattern.SPECIFICITY_COMPARATOR` orders
//! them (a catch-all last, then fewer variables with a `*` weighing 100,
//! then the longer pattern), where the JAX-RS rule (more literal text
//! first) would pick the other route; and how a JAX-RS resource's routes
//! and a controller's order in one application.

use restlight::prelude::*;
use restlight::test::MockClient;

#[derive(Default)]
struct Overlaps;

/// Each pair or trio overlaps under its own prefix; a handler answers its
/// own pattern.
#[restlight::rest_controller]
#[request_mapping(produces = "text/plain")]
impl Overlaps {
    // A catch-all loses to any pattern without one, even a shorter one.
    #[get_mapping("/a/{x}/{y}")]
    async fn a_two_vars(&self) -> &'static str {
        "/a/{x}/{y}"
    }
    #[get_mapping("/a/api/**")]
    async fn a_catch_all(&self) -> &'static str {
        "/a/api/**"
    }

    // A `*` weighs 100 variables.
    #[get_mapping("/b/x/*")]
    async fn b_wildcard(&self) -> &'static str {
        "/b/x/*"
    }
    #[get_mapping("/b/{p}/{q}")]
    async fn b_two_vars(&self) -> &'static str {
        "/b/{p}/{q}"
    }

    // Fewer variables first, whatever the literal text.
    #[get_mapping("/c/{lang}/documentation/{page}")]
    async fn c_two_vars(&self) -> &'static str {
        "/c/{lang}/documentation/{page}"
    }
    #[get_mapping("/c/en/{section}/index")]
    async fn c_one_var(&self) -> &'static str {
        "/c/en/{section}/index"
    }

    // At equal scores, the longer pattern.
    #[get_mapping("/d/{x}/details")]
    async fn d_long(&self) -> &'static str {
        "/d/{x}/details"
    }
    #[get_mapping("/d/users/{id}")]
    async fn d_short(&self) -> &'static str {
        "/d/users/{id}"
    }

    // Among catch-alls, the longer one; a variable before both, a `*`
    // before the catch-alls too.
    #[get_mapping("/e/**")]
    async fn e_any(&self) -> &'static str {
        "/e/**"
    }
    #[get_mapping("/e/files/{*path}")]
    async fn e_files(&self, #[path_variable] path: String) -> String {
        format!("/e/files/{{*path}} [{path}]")
    }
    #[get_mapping("/e/files/{name}")]
    async fn e_file(&self) -> &'static str {
        "/e/files/{name}"
    }
    #[get_mapping("/e/*")]
    async fn e_star(&self) -> &'static str {
        "/e/*"
    }

    // Spring finds these ambiguous (equal score and length); the router
    // breaks the tie as JAX-RS does: the literal earlier in the path, the
    // constrained variable.
    #[get_mapping("/f/{x}/b")]
    async fn f_var_first(&self) -> &'static str {
        "/f/{x}/b"
    }
    #[get_mapping("/f/a/{y}")]
    async fn f_literal_first(&self) -> &'static str {
        "/f/a/{y}"
    }
    #[get_mapping("/g/{x:\\d+}")]
    async fn g_digits(&self) -> &'static str {
        "/g/{x:\\d+}"
    }
    #[get_mapping("/g/{y}")]
    async fn g_any(&self) -> &'static str {
        "/g/{y}"
    }

    // A literal path first.
    #[get_mapping("/h/a/b")]
    async fn h_static(&self) -> &'static str {
        "/h/a/b"
    }
}

/// A JAX-RS resource beside the controller: among themselves its routes
/// keep the JAX-RS order; against a controller's, Spring's rule decides.
#[derive(Default)]
struct JaxRs;

#[restlight::path("/")]
#[produces("text/plain")]
impl JaxRs {
    #[get]
    #[path("/m/{x}")]
    async fn m_var(&self) -> &'static str {
        "jaxrs /m/{x}"
    }
    #[get]
    #[path("/n/{lang}/documentation/{page}")]
    async fn n_two_vars(&self) -> &'static str {
        "jaxrs /n/{lang}/documentation/{page}"
    }
    #[get]
    #[path("/n/en/{section}/index")]
    async fn n_one_var(&self) -> &'static str {
        "jaxrs /n/en/{section}/index"
    }
    #[get]
    #[path("/h/{x}/{y}")]
    async fn h_vars(&self) -> &'static str {
        "jaxrs /h/{x}/{y}"
    }
    #[get]
    #[path("/o/{rest: .*}")]
    async fn o_rest(&self) -> &'static str {
        "jaxrs /o/{rest: .*}"
    }
}

#[restlight::get_mapping("/m/**")]
async fn m_catch_all() -> &'static str {
    "spring /m/**"
}

#[restlight::get_mapping("/o/{x}/{y}")]
async fn o_two_vars() -> &'static str {
    "spring /o/{x}/{y}"
}

#[restlight::get_mapping("/h/**")]
async fn h_catch_all() -> &'static str {
    "spring /h/**"
}

fn client() -> MockClient {
    Restlight::new().mock().unwrap()
}

/// Requests and the pattern that answers, with the rule that decides.
const TABLE: &[(&str, &str)] = &[
    // Catch-all last (JAX-RS would prefer `/a/api/**`, with more literal text).
    ("/a/api/x", "/a/{x}/{y}"),
    ("/a/api/x/y", "/a/api/**"),
    ("/a/api", "/a/api/**"),
    // Score: `/b/{p}/{q}` is 2, `/b/x/*` is 100 (JAX-RS: `/b/x/*`).
    ("/b/x/y", "/b/{p}/{q}"),
    // Score: 1 before 2 (JAX-RS: the one with `documentation`).
    ("/c/en/documentation/index", "/c/en/{section}/index"),
    ("/c/de/documentation/index", "/c/{lang}/documentation/{page}"),
    // Equal score: the longer (`details` has more characters than `users`).
    ("/d/users/details", "/d/{x}/details"),
    ("/d/users/7", "/d/users/{id}"),
    // Catch-alls last, the longer first; a `*` before them.
    ("/e/files/a.txt", "/e/files/{name}"),
    ("/e/files/a/b", "/e/files/{*path} [/a/b]"),
    ("/e/files", "/e/*"),
    ("/e/other/x", "/e/**"),
    ("/e", "/e/**"),
    // Spring's ties, broken as JAX-RS does.
    ("/f/a/b", "/f/a/{y}"),
    ("/f/z/b", "/f/{x}/b"),
    ("/g/12", "/g/{x:\\d+}"),
    ("/g/ab", "/g/{y}"),
    // A literal path before a JAX-RS template and a Spring catch-all.
    ("/h/a/b", "/h/a/b"),
    ("/h/a/c", "jaxrs /h/{x}/{y}"),
    ("/h/a/c/d", "spring /h/**"),
    // Across styles, Spring's rule: the JAX-RS variable before the catch-all,
    ("/m/a", "jaxrs /m/{x}"),
    ("/m/a/b", "spring /m/**"),
    // and one variable (here a JAX-RS one spanning segments) before two
    // (JAX-RS would prefer `/o/{x}/{y}`, with one `/` more).
    ("/o/a/b", "jaxrs /o/{rest: .*}"),
    ("/o/a/b/c", "jaxrs /o/{rest: .*}"),
    // Among JAX-RS routes, the JAX-RS rule: more literal text first.
    ("/n/en/documentation/index", "jaxrs /n/{lang}/documentation/{page}"),
];

#[test]
fn overlapping_spring_patterns_rank_as_path_pattern_does() {
    let c = client();
    for (path, expected) in TABLE {
        let res = c.get(path).send_blocking();
        assert_eq!(res.status(), 200, "GET {path}: {}", res.text());
        assert_eq!(res.text(), *expected, "GET {path}");
    }
}
