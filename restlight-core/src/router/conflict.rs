//! Startup checks: routes that can never be told apart (errors) and routes
//! that can never be reached (warnings).

use std::collections::{BTreeSet, HashMap};

use super::regexes::literal_of_regex;
use super::template::{push_escaped, shape, Template};
use super::{RouteEntry, RouterProblem};

/// Every conflicting pair among the routes of one group of equivalent
/// templates: same method, overlapping consumes, same produces.
pub(crate) fn conflicts(members: &[&RouteEntry]) -> Vec<RouterProblem> {
    let mut out = Vec::new();
    for (i, a) in members.iter().enumerate() {
        for b in &members[i + 1..] {
            if a.method == b.method && consumes_overlap(a, b) && same_produces(a, b) {
                out.push(RouterProblem::Conflict { first: (*a).clone(), second: (*b).clone() });
            }
        }
    }
    out
}

fn consumes_overlap(a: &RouteEntry, b: &RouteEntry) -> bool {
    a.consumes.is_empty() || b.consumes.is_empty() || a.consumes.iter().any(|x| b.consumes.iter().any(|y| x.matches(y)))
}

fn same_produces(a: &RouteEntry, b: &RouteEntry) -> bool {
    let set = |e: &RouteEntry| e.produces.iter().map(|m| m.essence().to_owned()).collect::<BTreeSet<_>>();
    set(a) == set(b)
}

/// Routes of groups that match exactly the paths of a better group, so that
/// the better group is always chosen first: `/a/{x: b}` behind `/a/b`,
/// `/{x}` behind `/{x: [^/]+}`. `groups` is in precedence order, each with
/// its template and members.
pub(crate) fn shadowed(groups: &[(&Template, Vec<&RouteEntry>)]) -> Vec<RouterProblem> {
    let mut winners: HashMap<String, &RouteEntry> = HashMap::new();
    let mut out = Vec::new();
    for (template, members) in groups {
        let canonical = shape(&template.segments, &template.vars, |v| match v.regex.as_deref() {
            None | Some("[^/]+") => "{}".to_owned(),
            Some(re) => match literal_of_regex(re) {
                Some(lit) => {
                    let mut s = String::new();
                    push_escaped(&mut s, &lit);
                    s
                }
                None => format!("{{:{re}}}"),
            },
        });
        let Some(first) = members.first() else { continue };
        match winners.get(&canonical) {
            None => {
                winners.insert(canonical, first);
            }
            Some(winner) => out.extend(
                members.iter().map(|e| RouterProblem::Shadowed { route: (*e).clone(), winner: (*winner).clone() }),
            ),
        }
    }
    out
}
