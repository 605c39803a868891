//! Reading the contract: JSON or YAML into one `serde_json::Value`, so that
//! OpenAPI 3.0 and 3.1 documents go through the same code.

use serde_json::{Map, Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// Parses the text of a document, YAML unless it starts with `{`
/// (JSON is YAML, but JSON's own parser reports errors better).
///
/// # Errors
/// What the parser reports, with its line.
pub fn parse(text: &str) -> Result<Value, String> {
    if text.trim_start().starts_with('{') {
        return serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"));
    }
    let docs = YamlLoader::load_from_str(text).map_err(|e| format!("invalid YAML: {e}"))?;
    let doc = docs.into_iter().next().ok_or("the file is empty")?;
    yaml_to_json(doc, "#")
}

/// The OpenAPI version's major and minor numbers, 3.0 or 3.1.
///
/// # Errors
/// A document of another version, or not an OpenAPI document.
pub fn version(doc: &Value) -> Result<(u32, u32), String> {
    let Some(v) = doc.get("openapi").and_then(Value::as_str) else {
        return Err(if doc.get("swagger").is_some() {
            "a Swagger 2.0 document: convert it to OpenAPI 3 first (for example with swagger2openapi)".into()
        } else {
            "not an OpenAPI document: no `openapi` version".into()
        });
    };
    match v.split('.').take(2).collect::<Vec<_>>().as_slice() {
        ["3", "0"] => Ok((3, 0)),
        ["3", "1"] => Ok((3, 1)),
        _ => Err(format!("OpenAPI {v} is not supported: 3.0.x and 3.1.x are")),
    }
}

fn yaml_to_json(y: Yaml, at: &str) -> Result<Value, String> {
    Ok(match y {
        Yaml::Null => Value::Null,
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Integer(i) => Value::Number(i.into()),
        Yaml::Real(r) => {
            let f: f64 = r.parse().map_err(|_| format!("{at}: `{r}` is not a number"))?;
            Number::from_f64(f).map_or(Value::Null, Value::Number)
        }
        Yaml::String(s) => Value::String(s),
        Yaml::Array(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| yaml_to_json(item, &format!("{at}/{i}")))
                .collect::<Result<_, _>>()?,
        ),
        Yaml::Hash(hash) => {
            let mut map = Map::new();
            for (k, v) in hash {
                let key = match k {
                    Yaml::String(s) | Yaml::Real(s) => s,
                    Yaml::Integer(i) => i.to_string(),
                    Yaml::Boolean(b) => b.to_string(),
                    Yaml::Null => "null".into(),
                    _ => return Err(format!("{at}: a mapping key that is not a scalar")),
                };
                let value = yaml_to_json(v, &format!("{at}/{}", super::escape_pointer(&key)))?;
                map.insert(key, value);
            }
            Value::Object(map)
        }
        Yaml::Alias(_) | Yaml::BadValue => return Err(format!("{at}: YAML aliases are not supported")),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn yaml_and_json_give_the_same_value() {
        let yaml = "openapi: 3.0.3\npaths:\n  /a:\n    get:\n      responses:\n        '200': {description: ok}\nx: [1, 2.5, true, null]\n";
        let json = r#"{"openapi":"3.0.3","paths":{"/a":{"get":{"responses":{"200":{"description":"ok"}}}}},"x":[1,2.5,true,null]}"#;
        assert_eq!(parse(yaml).unwrap(), parse(json).unwrap());
        assert_eq!(version(&parse(yaml).unwrap()), Ok((3, 0)));
    }

    #[test]
    fn other_versions_are_refused_with_a_reason() {
        assert!(version(&json!({"swagger": "2.0"})).unwrap_err().contains("swagger2openapi"));
        assert!(version(&json!({"openapi": "4.0.0"})).unwrap_err().contains("3.0.x and 3.1.x"));
    }
}
