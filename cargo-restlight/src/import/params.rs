//! The parameters of an operation: their Rust types, `#[default_value]`s
//! and path regexes, and the values the generated tests send.

use serde_json::Value;

use super::names::{pascal, snake};
use super::ops::{Location, Param};
use super::schema::{self, Types};
use super::{escape_pointer, Warnings};

pub(crate) fn parameter<'d>(
    types: &mut Types<'d>,
    p: &'d Value,
    ptr: &str,
    hint: &str,
    w: &mut Warnings,
) -> Option<Param> {
    let name = p.get("name").and_then(Value::as_str)?.to_owned();
    let location = match p.get("in").and_then(Value::as_str) {
        Some("path") => Location::Path,
        Some("query") => Location::Query,
        Some("header") => Location::Header,
        Some("cookie") => Location::Cookie,
        other => {
            w.add(ptr, format!("a parameter `in: {}` is not generated", other.unwrap_or("?")));
            return None;
        }
    };
    if location == Location::Header
        && ["accept", "content-type", "authorization"].contains(&name.to_ascii_lowercase().as_str())
    {
        if name.eq_ignore_ascii_case("authorization") {
            w.add(
                ptr,
                "the `Authorization` header parameter is read as a header; a security scheme would be an interceptor",
            );
        } else {
            w.add(ptr, format!("the `{name}` header is the framework's content negotiation: not a parameter"));
            return None;
        }
    }
    let style = p.get("style").and_then(Value::as_str);
    let default_style = match location {
        Location::Path => "simple",
        Location::Query | Location::Cookie | Location::Form => "form",
        Location::Header => "simple",
        Location::Matrix => "matrix",
    };
    if let Some(style) = style.filter(|s| *s != default_style) {
        w.add(&format!("{ptr}/style"), format!("`style: {style}` is read as `{default_style}`"));
    }
    if p.get("explode") == Some(&Value::Bool(false)) {
        w.add(&format!("{ptr}/explode"), "`explode: false` is read as repeated parameters (`explode: true`)");
    }
    let schema = match p.get("schema") {
        Some(s) => s,
        None => {
            w.add(ptr, "a parameter with `content` instead of `schema` is read as a string");
            &Value::Null
        }
    };
    let required = location == Location::Path || p.get("required") == Some(&Value::Bool(true));
    let mut param = scalar_param(types, &name, location, schema, required, ptr, hint, w);
    if let Some(example) = p.get("example").and_then(text) {
        if param.sample.is_some() {
            param.sample = Some(example);
        }
    }
    // springdoc renders a `params = "name=value"` condition as a required
    // query parameter that allows that one value.
    if location == Location::Query && required {
        if let Some([only]) = types.resolve(schema).get("enum").and_then(Value::as_array).map(Vec::as_slice) {
            param.condition = text(only).map(|v| format!("{name}={v}"));
        }
    }
    Some(param)
}

/// The matrix parameters of a path parameter with `style: matrix`: one per
/// property of its object schema, as SmallRye writes a JAX-RS resource's
/// `@MatrixParam`s (`/cars{carsMatrix}`, `explode: true`), or the parameter
/// itself when its schema is a scalar (as swagger-core writes one).
pub(crate) fn matrix_params<'d>(
    types: &mut Types<'d>,
    p: &'d Value,
    ptr: &str,
    path: &str,
    hint: &str,
    w: &mut Warnings,
) -> Vec<Param> {
    let var = p.get("name").and_then(Value::as_str).unwrap_or_default();
    let placeholder = format!("{{{var}}}");
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or_default();
    if path.contains(&placeholder) && !last.ends_with(&placeholder) {
        w.add(ptr, "matrix parameters of a segment other than the last are read from the last segment");
    }
    w.add(
        ptr,
        "matrix parameters are read with `#[matrix_param]`; the served document names them in the operation's \
         description, not as a `style: matrix` path parameter",
    );
    if p.get("explode") == Some(&Value::Bool(false)) {
        w.add(
            &format!("{ptr}/explode"),
            "`explode: false` is read as one `;name=value` per parameter (`explode: true`)",
        );
    }
    let schema = p.get("schema").unwrap_or(&Value::Null);
    let resolved = types.resolve(schema);
    let Some(props) = resolved.get("properties").and_then(Value::as_object) else {
        let required = p.get("required") == Some(&Value::Bool(true)) && !path.contains(&placeholder);
        return vec![scalar_param(types, var, Location::Matrix, schema, required, ptr, hint, w)];
    };
    let required: Vec<&str> =
        resolved.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    props
        .iter()
        .map(|(name, prop)| {
            let f_ptr = format!("{ptr}/schema/properties/{}", escape_pointer(name));
            scalar_param(types, name, Location::Matrix, prop, required.contains(&name.as_str()), &f_ptr, hint, w)
        })
        .collect()
}

/// A parameter whose value is one scalar or a list of them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn scalar_param<'d>(
    types: &mut Types<'d>,
    name: &str,
    location: Location,
    schema: &'d Value,
    required: bool,
    ptr: &str,
    hint: &str,
    w: &mut Warnings,
) -> Param {
    let resolved = types.resolve(schema);
    let s_ptr = format!("{ptr}/schema");
    let is_array = schema::types(resolved).contains(&"array");
    let (value_schema, value_ptr) = if is_array {
        (resolved.get("items").unwrap_or(&Value::Null), format!("{s_ptr}/items"))
    } else {
        (schema, s_ptr.clone())
    };
    let mut value = scalar_type(types, value_schema, &value_ptr, &format!("{hint}{}", pascal(name)), w);
    let default = resolved.get("default").and_then(|d| {
        let t = text(d);
        if t.is_none() {
            w.add(&format!("{s_ptr}/default"), "a default that is not a scalar is not kept");
        }
        t
    });
    let mut pattern = None;
    if location == Location::Path {
        if let Some(p) = types.resolve(value_schema).get("pattern").and_then(Value::as_str) {
            match segment_regex(p).and_then(|re| route_regex(p, re)) {
                Ok(re) => pattern = Some(re),
                Err(why) => w.add(
                    &format!("{s_ptr}/pattern"),
                    format!("the pattern is not kept in the route (any segment matches): {why}"),
                ),
            }
        }
    }
    // Elsewhere a pattern is checked by the parameter's type, as a search.
    let mut check = None;
    if location != Location::Path && value == "String" {
        if let Some(p) = types.resolve(value_schema).get("pattern").and_then(Value::as_str) {
            match segment_regex(p) {
                Ok(re) => {
                    value = types.pattern_type(&format!("{hint}{}", pascal(name)), p);
                    check = Some(re);
                }
                Err(why) => w.add(&format!("{s_ptr}/pattern"), format!("the pattern is not checked: {why}")),
            }
        }
    }
    let ty = if is_array {
        if required && location != Location::Path {
            w.add(ptr, "a required list is read as `Vec<T>`: an absent one is empty and documented as not required");
        }
        if default.is_some() {
            w.add(&format!("{s_ptr}/default"), "the default of a list is not kept");
        }
        format!("Vec<{value}>")
    } else if required || default.is_some() {
        if required && default.is_some() && location != Location::Path {
            w.add(
                &format!("{s_ptr}/default"),
                "a required parameter with a default is read as optional with that default",
            );
        }
        value.clone()
    } else {
        format!("Option<{value}>")
    };
    let sample = (required && !is_array).then(|| {
        let original = types.resolve(value_schema).get("pattern").and_then(Value::as_str);
        sample_text(types, value_schema, &value, pattern.as_deref().or(check.as_deref()).zip(original))
    });
    Param {
        name: name.to_owned(),
        ident: snake(name),
        location,
        ty,
        default: if is_array { None } else { default },
        pattern,
        sample,
        condition: None,
        checked: check
            .is_some()
            .then(|| types.resolve(value_schema)["pattern"].as_str().unwrap_or_default().to_owned()),
    }
}

fn scalar_type<'d>(types: &mut Types<'d>, schema: &'d Value, ptr: &str, hint: &str, w: &mut Warnings) -> String {
    let resolved = types.resolve(schema);
    let ts = schema::types(resolved);
    let object = ts.contains(&"object") || ts.contains(&"array") || resolved.get("properties").is_some();
    if object {
        w.add(ptr, "an object or nested list in a parameter is read as its text");
        return "String".into();
    }
    if resolved.get("format").and_then(Value::as_str) == Some("binary") {
        return "String".into();
    }
    let t = types.ty(schema, ptr, hint, w);
    if t.expr == "serde_json::Value" || t.expr.starts_with("Vec<") || t.expr.starts_with("std::collections::BTreeMap<")
    {
        return "String".into();
    }
    t.expr
}

/// The route regex of a path parameter's `pattern`: a JSON Schema pattern
/// matches anywhere in the value (an ECMA-262 search) unless anchored, the
/// router's regex matches the whole segment. So each alternative keeps its
/// `^` and `$` as the segment's ends, and an end it does not anchor takes
/// any other characters of the segment: `\d{13}` is `[^/]*?(?:\d{13})[^/]*`,
/// `^\d{13}$` is `\d{13}`, `^a|b$` is `(?:a)[^/]*|[^/]*?(?:b)`.
///
/// # Errors
/// Why the pattern cannot be a route regex: an anchor inside a group, or a
/// syntax the `regex` crate does not have (look-around, back-references).
pub(crate) fn segment_regex(pattern: &str) -> Result<String, String> {
    let alternatives = top_level_alternatives(pattern);
    let single = alternatives.len() == 1;
    let mut out = Vec::new();
    for alt in alternatives {
        let (start, rest) = match alt.strip_prefix('^') {
            Some(rest) => (true, rest),
            None => (false, alt),
        };
        let (end, body) = match rest.strip_suffix('$') {
            // `\$` is a literal dollar, `\\$` a backslash then the end.
            Some(body) if body.chars().rev().take_while(|c| *c == '\\').count() % 2 == 0 => (true, body),
            _ => (false, rest),
        };
        if has_anchor(body) {
            return Err(format!("the anchor in `{pattern}` is not at an end of an alternative"));
        }
        out.push(match (start, end) {
            (true, true) if single => body.to_owned(),
            (true, true) => format!("(?:{body})"),
            (true, false) => format!("(?:{body})[^/]*"),
            (false, true) => format!("[^/]*?(?:{body})"),
            (false, false) => format!("[^/]*?(?:{body})[^/]*"),
        });
    }
    let re = out.join("|");
    regex::Regex::new(&format!("^(?:{re})$")).map_err(|e| {
        format!(
            "`{pattern}` is not a regex of the `regex` crate: {}",
            e.to_string().lines().last().unwrap_or_default().trim()
        )
    })?;
    Ok(re)
}

/// `re` (from [`segment_regex`]) if the router's regex engine, `regex-lite`,
/// compiles it as the route's template does: no Unicode classes (`\p{L}`),
/// which the macros would refuse in the generated code.
///
/// # Errors
/// The engine's reason.
pub(crate) fn route_regex(pattern: &str, re: String) -> Result<String, String> {
    match regex_lite::Regex::new(&format!("^(?:{re})$")) {
        Ok(_) => Ok(re),
        Err(e) => Err(format!("`{pattern}` is not a regex the router's engine (`regex-lite`) compiles: {e}")),
    }
}

/// The alternatives of a regex split at its `|`s outside groups and classes.
fn top_level_alternatives(pattern: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut class, mut escaped, mut from) = (0usize, false, false, 0);
    for (i, c) in pattern.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' if !class => class = true,
            ']' if class => class = false,
            '(' if !class => depth += 1,
            ')' if !class => depth = depth.saturating_sub(1),
            '|' if !class && depth == 0 => {
                out.push(&pattern[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&pattern[from..]);
    out
}

/// Whether a regex has an unescaped `^` or `$` outside its classes.
fn has_anchor(regex: &str) -> bool {
    let (mut class, mut escaped, mut previous) = (false, false, ' ');
    for c in regex.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' if !class => class = true,
            ']' if class && previous != '[' => class = false,
            '^' | '$' if !class => return true,
            _ => {}
        }
        previous = c;
    }
    false
}

/// The text of a scalar JSON value, as a parameter carries it.
fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A value of the parameter's type (and pattern) for the generated test.
/// `pattern` is the route's regex and the contract's pattern it comes from.
fn sample_text(types: &Types<'_>, schema: &Value, ty: &str, pattern: Option<(&str, &str)>) -> String {
    let resolved = types.resolve(schema);
    let first = resolved.get("examples").and_then(Value::as_array).and_then(|e| e.first());
    if let Some(v) = resolved.get("example").or(first).or_else(|| resolved.get("default")).and_then(text) {
        return v;
    }
    if let Some(first) = resolved.get("enum").and_then(Value::as_array).and_then(|e| e.iter().find_map(Value::as_str)) {
        return first.to_owned();
    }
    let candidates: &[&str] = match ty {
        "bool" => &["true"],
        "f32" | "f64" => &["1.5", "1"],
        t if t.starts_with('i') || t.starts_with('u') => &["1"],
        _ => &["text", "1", "abc", "a1", "A1", "ABC", "2024-01-01", "00000000-0000-0000-0000-000000000001"],
    };
    if let Some((p, original)) = pattern {
        if let Ok(re) = regex::Regex::new(&format!("^(?:{p})$")) {
            let original = original.strip_prefix('^').unwrap_or(original);
            let built = regex_sample(original.strip_suffix('$').unwrap_or(original));
            if let Some(c) = built.iter().map(String::as_str).chain(candidates.iter().copied()).find(|c| re.is_match(c))
            {
                return c.to_owned();
            }
        }
    }
    if resolved.get("format").and_then(Value::as_str) == Some("uuid") {
        return "00000000-0000-0000-0000-000000000001".into();
    }
    candidates[0].to_owned()
}

/// A string matching a simple regex: literals, `\d`, `\w`, `.`, classes
/// (their first character) and the quantifiers `{n}`, `{n,m}`, `+`, `*`, `?`.
/// `None` for anything else (groups, alternatives); the caller checks the result.
fn regex_sample(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let atom = match chars[i] {
            '\\' => {
                i += 1;
                match *chars.get(i)? {
                    'd' => '1',
                    'w' => 'a',
                    's' => ' ',
                    c if c.is_ascii_alphanumeric() => return None,
                    c => c,
                }
            }
            '[' => {
                let close = chars[i..].iter().position(|c| *c == ']')? + i;
                let first = *chars.get(i + 1)?;
                if first == '^' || first == '\\' {
                    return None;
                }
                i = close;
                first
            }
            '.' => 'a',
            '(' | ')' | '|' | '^' | '$' => return None,
            c => c,
        };
        i += 1;
        let mut times = 1;
        match chars.get(i) {
            Some('{') => {
                let close = chars[i..].iter().position(|c| *c == '}')? + i;
                let inner: String = chars[i + 1..close].iter().collect();
                times = inner.split(',').next()?.trim().parse().ok()?;
                i = close + 1;
            }
            Some('+') => i += 1,
            Some('*' | '?') => {
                times = 0;
                i += 1;
            }
            _ => {}
        }
        for _ in 0..times {
            out.push(atom);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_anywhere_in_the_segment_unless_anchored() {
        assert_eq!(segment_regex(r"^\d{13}$").as_deref(), Ok(r"\d{13}"));
        assert_eq!(segment_regex(r"\d{13}").as_deref(), Ok(r"[^/]*?(?:\d{13})[^/]*"));
        assert_eq!(segment_regex(r"^ab").as_deref(), Ok("(?:ab)[^/]*"));
        assert_eq!(segment_regex(r"ab$").as_deref(), Ok("[^/]*?(?:ab)"));
        assert_eq!(segment_regex(r"^a|b$").as_deref(), Ok("(?:a)[^/]*|[^/]*?(?:b)"));
        assert_eq!(segment_regex(r"^(a|b)$").as_deref(), Ok("(a|b)"));
        // Escaped anchors are literals; a `$` in a class is a character.
        assert_eq!(segment_regex(r"^\$\d+\$").as_deref(), Ok(r"(?:\$\d+\$)[^/]*"));
        assert_eq!(segment_regex(r"^[$^]+$").as_deref(), Ok(r"[$^]+"));
        assert_eq!(segment_regex(r"^[|]|x$").as_deref(), Ok(r"(?:[|])[^/]*|[^/]*?(?:x)"));
        // What the route cannot keep: an anchor inside, a look-ahead.
        assert!(segment_regex(r"(^a)b").unwrap_err().contains("not at an end"));
        assert!(segment_regex(r"^(?=a)\w+$").unwrap_err().contains("not a regex of the `regex` crate"));
        // A Unicode class compiles with `regex` (a query parameter's type
        // checks it) but not in a route.
        let letters = segment_regex(r"^\p{L}+$").unwrap();
        let refused = route_regex(r"^\p{L}+$", letters).unwrap_err();
        assert!(
            refused.contains(r"`^\p{L}+$` is not a regex the router's engine (`regex-lite`) compiles"),
            "{refused}"
        );
        assert_eq!(route_regex(r"^\d{13}$", r"\d{13}".into()).as_deref(), Ok(r"\d{13}"));

        // The translated regex accepts, on a whole segment, what the
        // pattern finds in it, and nothing else.
        let full = |p: &str, value: &str| {
            regex::Regex::new(&format!("^(?:{})$", segment_regex(p).unwrap())).unwrap().is_match(value)
        };
        let search = |p: &str, value: &str| regex::Regex::new(p).unwrap().is_match(value);
        for p in [r"\d{13}", r"^\d{13}$", r"^ab", r"ab$", r"^a|b$", r"x|^y"] {
            for value in ["9780000000001", "x9780000000001y", "978", "ab", "abc", "cab", "a", "zb", "yx", "zy", "x"] {
                assert_eq!(full(p, value), search(p, value), "`{p}` on `{value}`");
            }
        }
    }

    #[test]
    fn simple_patterns_have_samples() {
        assert_eq!(regex_sample(r"\d{13}").as_deref(), Some("1111111111111"));
        assert_eq!(regex_sample(r"[a-z]+-\d{2,4}").as_deref(), Some("a-11"));
        assert_eq!(regex_sample(r"(a|b)"), None);
    }
}
