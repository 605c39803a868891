//! Startup checks: routes that can never be told apart (errors) and routes
//! that can never be reached (warnings).

use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::ops::Range;

use rustc_hash::FxHashMap as HashMap;

use super::regexes::literal_of_regex;
use super::template::{push_escaped, shape, write_var, Template};
use super::{EntryRef, RouterProblem};
use crate::media::MediaType;

/// Every conflicting pair among the routes of one group of equivalent
/// templates: same method, same conditions, same consumes set, same
/// produces set (no request can tell them apart). Routes that differ only there are ranked
/// per request, as JAX-RS does.
pub(crate) fn conflicts(members: &[EntryRef<'_>]) -> Vec<RouterProblem> {
    let mut out = Vec::new();
    for (i, a) in members.iter().enumerate() {
        for b in &members[i + 1..] {
            if a.method == b.method
                && a.conditions.same_requirements(b.conditions)
                && media_set(a.consumes) == media_set(b.consumes)
                && same_keys(&produces(a), &produces(b))
            {
                out.push(RouterProblem::Conflict { first: a.to_entry(), second: b.to_entry() });
            }
        }
    }
    out
}

/// Routes of one group that no request ever chooses (warnings): another
/// route of the same method and conditions consumes every type it consumes and produces
/// every type it produces with a `qs` at least as high, and wins the ties
/// (it comes first in the group's order, or every such `qs` is higher).
/// Pairs that state the same types are conflicts instead.
pub(crate) fn outranked(members: &[EntryRef<'_>]) -> Vec<RouterProblem> {
    let mut out = Vec::new();
    if members.len() < 2 {
        return out; // no other route to outrank it
    }
    for (j, b) in members.iter().enumerate() {
        let (b_consumes, b_produces) = (media_set(b.consumes), produces(b));
        let winner = members.iter().enumerate().find(|&(i, a)| {
            let (a_consumes, a_produces) = (media_set(a.consumes), produces(a));
            let same_types = a_consumes == b_consumes && same_keys(&a_produces, &b_produces);
            let qs = |t: &str| a_produces.iter().find(|(a_t, _)| *a_t == t).map(|&(_, qs)| qs);
            i != j
                && a.method == b.method
                && a.conditions.same_requirements(b.conditions)
                && !same_types
                && b_consumes.iter().all(|t| a_consumes.contains(t))
                && b_produces.iter().all(|&(t, b_qs)| qs(t).is_some_and(|a_qs| a_qs >= b_qs))
                && (i < j || b_produces.iter().all(|&(t, b_qs)| qs(t).is_some_and(|a_qs| a_qs > b_qs)))
        });
        if let Some((_, a)) = winner {
            out.push(RouterProblem::Outranked { route: b.to_entry(), winner: a.to_entry() });
        }
    }
    out
}

/// The essences of a consumes list (parameters cannot tell requests apart
/// here), sorted, each once; stating none is `*/*`. Sorted lists rather
/// than `BTreeSet`s, whose code (and a stable sort for its `collect`)
/// would be linked into every service for these few startup checks.
fn media_set(types: &[MediaType]) -> Vec<&str> {
    if types.is_empty() {
        return vec!["*/*"];
    }
    let mut set: Vec<&str> = types.iter().map(MediaType::essence).collect();
    crate::sort::sort_by(&mut set, &|a, b| a.cmp(b));
    set.dedup();
    set
}

/// The essences of a route's produces with their highest `qs`, sorted by
/// essence, each once; stating none is `*/*`.
fn produces<'e>(e: &EntryRef<'e>) -> Vec<(&'e str, u16)> {
    if e.produces.is_empty() {
        return vec![("*/*", 1000)];
    }
    let mut out: Vec<(&str, u16)> = e.produces.iter().map(|m| (m.essence(), m.qs())).collect();
    crate::sort::sort_by(&mut out, &|a, b| a.0.cmp(b.0));
    // Of equal essences (now side by side) keep one, with the highest `qs`.
    out.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 = kept.1.max(later.1);
        }
        same
    });
    out
}

/// Whether two `produces` lists name the same essences.
fn same_keys(a: &[(&str, u16)], b: &[(&str, u16)]) -> bool {
    a.iter().map(|&(t, _)| t).eq(b.iter().map(|&(t, _)| t))
}

/// Routes of groups that match exactly the paths of a better group, so that
/// the better group is always chosen first: `/a/{x: b}` behind `/a/b`,
/// `/{x}` behind `/{x: [^/]+}`. `groups` is in precedence order, each with
/// its template (whose shape is in `shapes`) and the range of `order`
/// holding its members (indices of `entries`). One hash lookup per
/// group; a template whose variables all take the default (the common
/// case) is its own canonical form, so nothing is written for it.
pub(crate) fn shadowed<'e>(
    groups: &[(&Template<'_>, Range<usize>)],
    shapes: &str,
    order: &[usize],
    entries: &dyn Fn(usize) -> EntryRef<'e>,
) -> Vec<RouterProblem> {
    let mut winners: HashMap<Cow<'_, str>, usize> = HashMap::default();
    winners.reserve(groups.len());
    let mut out = Vec::new();
    for (template, members) in groups {
        let members = &order[members.clone()];
        let Some(&first) = members.first() else { continue };
        let canonical = if template.vars.iter().all(|v| v.regex.is_none()) {
            Cow::Borrowed(template.shape_in(shapes))
        } else {
            Cow::Owned(shape(template.segments.iter().map(|seg| seg.as_slice()), &template.vars, |out, v| {
                match v.regex.as_deref() {
                    None | Some("[^/]+") => out.push_str("{}"),
                    Some(re) => match literal_of_regex(re) {
                        Some(lit) => push_escaped(out, &lit),
                        None => write_var(out, v),
                    },
                }
            }))
        };
        match winners.entry(canonical) {
            Entry::Vacant(slot) => {
                slot.insert(first);
            }
            Entry::Occupied(winner) => {
                let winner = entries(*winner.get());
                out.extend(
                    members
                        .iter()
                        .map(|&e| RouterProblem::Shadowed { route: entries(e).to_entry(), winner: winner.to_entry() }),
                );
            }
        }
    }
    out
}
