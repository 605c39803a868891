//! YAML from a JSON value, without a YAML library: block mappings and
//! sequences, with every string written as a JSON string. JSON's escapes
//! are a subset of YAML's double-quoted ones, so each string reads back
//! exactly, and no plain scalar is ever misread (`no`, `1.0`, `null`).

use serde_json::Value;

/// The value as a YAML document.
pub(crate) fn to_yaml(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(m) if !m.is_empty() => mapping(&mut out, value, 0),
        Value::Array(a) if !a.is_empty() => sequence(&mut out, value, 0),
        other => {
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
    out
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Object(_) => "{}".to_owned(),
        Value::Array(_) => "[]".to_owned(),
        // Null, booleans, numbers and strings are written as JSON writes them.
        other => other.to_string(),
    }
}

fn is_block(v: &Value) -> bool {
    match v {
        Value::Object(m) => !m.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => false,
    }
}

fn indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

fn mapping(out: &mut String, v: &Value, at: usize) {
    let Value::Object(m) = v else { return };
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            indent(out, at);
        }
        out.push_str(&Value::from(k.as_str()).to_string());
        out.push(':');
        value_after_key(out, v, at);
    }
}

fn value_after_key(out: &mut String, v: &Value, at: usize) {
    match v {
        Value::Object(_) if is_block(v) => {
            out.push('\n');
            indent(out, at + 2);
            mapping(out, v, at + 2);
        }
        Value::Array(_) if is_block(v) => {
            out.push('\n');
            indent(out, at);
            sequence(out, v, at);
        }
        other => {
            out.push(' ');
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
}

fn sequence(out: &mut String, v: &Value, at: usize) {
    let Value::Array(a) = v else { return };
    for (i, item) in a.iter().enumerate() {
        if i > 0 {
            indent(out, at);
        }
        out.push_str("- ");
        match item {
            Value::Object(_) if is_block(item) => mapping(out, item, at + 2),
            Value::Array(_) if is_block(item) => sequence(out, item, at + 2),
            other => {
                out.push_str(&scalar(other));
                out.push('\n');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn nested_documents_are_block_yaml_with_json_strings() {
        let v = json!({"a": {"b": [1, {"c": "no", "d": []}, [true, null]], "e": {}}, "f": "x\ny"});
        let expected = "\"a\":\n  \"b\":\n  - 1\n  - \"c\": \"no\"\n    \"d\": []\n  - - true\n    - null\n  \"e\": {}\n\"f\": \"x\\ny\"\n";
        assert_eq!(super::to_yaml(&v), expected);
    }
}
