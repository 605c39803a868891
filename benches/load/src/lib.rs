//! What every server in the load comparison shares: the service's contract, the
//! decoy route table and the command line.
//!
//! The service:
//!
//! | request | answer |
//! |---|---|
//! | `GET /hello` | `200 text/plain; charset=utf-8`, [`HELLO`] |
//! | `GET /json` | `200 application/json`, [`Message`] serialised per request |
//! | `GET /users/{id}/orders/{order}` (both `u64`) | `200 text/plain`, `user {id} order {order}`; 400 on a non-number |
//! | `POST /echo` | `200 application/octet-stream`, the request body |
//! | the 100 [`decoys`] | `200 text/plain`, [`DECOY`] |
//!
//! The decoys are registered ahead of `/users/{id}/orders/{order}`; a third of
//! them share its prefix and its segment count, so a router cannot skip them by
//! the first segment alone. Restlight also serves every route under `/biz` on its
//! business pool.

use serde::Serialize;

/// Body of `GET /hello`.
pub const HELLO: &str = "Hello, World!";
/// Body of every decoy route.
pub const DECOY: &str = "decoy";
/// Content type of the text answers (what axum and Restlight emit for `&str`).
pub const TEXT_PLAIN: &str = "text/plain; charset=utf-8";

/// Body of `GET /json`.
#[derive(Serialize, Debug)]
pub struct Message {
    /// Always [`HELLO`].
    pub message: &'static str,
}

/// Number of decoys of the form `/users/{id}/orders{i}/{order}`.
pub const DECOY_NEAR: usize = 34;
/// Number of decoys of the form `/users/{id}/decoy{i}`.
pub const DECOY_SHORT: usize = 33;
/// Number of decoys of the form `/decoy{i}/{id}/orders/{order}`.
pub const DECOY_TOP: usize = 33;

/// The 100 decoy templates, in `{name}` syntax (axum, actix-web and Restlight
/// all spell variables that way).
pub fn decoys() -> Vec<String> {
    let mut v = Vec::with_capacity(DECOY_NEAR + DECOY_SHORT + DECOY_TOP);
    for i in 0..DECOY_NEAR {
        v.push(format!("/users/{{id}}/orders{i}/{{order}}"));
    }
    for i in 0..DECOY_SHORT {
        v.push(format!("/users/{{id}}/decoy{i}"));
    }
    for i in 0..DECOY_TOP {
        v.push(format!("/decoy{i}/{{id}}/orders/{{order}}"));
    }
    v
}

/// `true` when `seg` is `prefix` followed by a decimal number below `below`
/// (the hand matcher of the raw hyper server uses it for the decoys).
pub fn numbered(seg: &str, prefix: &str, below: usize) -> bool {
    match seg.strip_prefix(prefix) {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            n.parse::<usize>().map(|n| n < below).unwrap_or(false)
        }
        _ => false,
    }
}

/// The answer of `GET /users/{id}/orders/{order}`.
pub fn order_text(id: u64, order: u64) -> String {
    format!("user {id} order {order}")
}

/// The `--port N` argument (default 8080). Every server binds 127.0.0.1 only.
pub fn port_from_args() -> u16 {
    let args: Vec<String> = std::env::args().collect();
    let mut port = 8080;
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--port" => {
                port = args.get(i + 1).and_then(|p| p.parse().ok()).unwrap_or_else(|| usage());
                i += 2;
            }
            a if a.starts_with("--port=") => {
                port = a["--port=".len()..].parse().unwrap_or_else(|_| usage());
                i += 1;
            }
            _ => usage(),
        }
    }
    port
}

fn usage() -> ! {
    eprintln!("usage: {} [--port N]", std::env::args().next().unwrap_or_default());
    std::process::exit(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hundred_distinct_decoys() {
        let d = decoys();
        assert_eq!(d.len(), 100);
        let set: std::collections::HashSet<_> = d.iter().collect();
        assert_eq!(set.len(), 100);
        assert!(!d.contains(&"/users/{id}/orders/{order}".to_string()));
    }

    #[test]
    fn numbered_segments() {
        assert!(numbered("orders3", "orders", 34));
        assert!(!numbered("orders", "orders", 34));
        assert!(!numbered("orders34", "orders", 34));
        assert!(!numbered("orders3x", "orders", 34));
    }
}
