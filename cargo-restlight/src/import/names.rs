//! Rust names for the names of a document: types in `PascalCase`,
//! functions, fields and parameters in `snake_case`, never a keyword.

const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn", "else",
    "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod",
    "move", "mut", "override", "priv", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait",
    "true", "try", "type", "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// The words of a name: split at non-alphanumerics and at case changes
/// (`HTTPStatus` is `HTTP`, `Status`; `petId` is `pet`, `Id`).
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_ascii_uppercase()
            && prev.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            });
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `snake_case`, a valid identifier that is not a keyword (`type` is `type_`).
pub fn snake(name: &str) -> String {
    let mut out = words(name).iter().map(|w| w.to_ascii_lowercase()).collect::<Vec<_>>().join("_");
    if out.is_empty() {
        out.push_str("value");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

/// `PascalCase`, a valid type name (`V` before a leading digit).
pub fn pascal(name: &str) -> String {
    let mut out: String = words(name)
        .iter()
        .map(|w| {
            let mut cs = w.chars();
            cs.next()
                .map_or_else(String::new, |f| f.to_ascii_uppercase().to_string() + &cs.as_str().to_ascii_lowercase())
        })
        .collect();
    if out.is_empty() {
        out.push_str("Value");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    if out == "Self" {
        out.push('_');
    }
    out
}

/// A Rust string literal of `s`.
pub fn lit(s: &str) -> String {
    format!("{s:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_identifiers() {
        let cases = [
            ("petId", "pet_id", "PetId"),
            ("X-Request-ID", "x_request_id", "XRequestId"),
            ("HTTPStatus", "http_status", "HttpStatus"),
            ("type", "type_", "Type"),
            ("2fa", "_2fa", "V2fa"),
            ("user_name", "user_name", "UserName"),
            ("", "value", "Value"),
        ];
        for (name, s, p) in cases {
            assert_eq!((snake(name).as_str(), pascal(name).as_str()), (s, p), "{name}");
        }
    }
}
