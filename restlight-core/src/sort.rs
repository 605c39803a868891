//! One stable sort for the lists put in order at startup (descriptors,
//! interceptors, mappers, codecs, executors, and in the router its
//! problems, a group's ties, a route's conditions and media types).
//!
//! `slice::sort_by` is instantiated once per element type and comparator,
//! about 8 KiB of code each; a dozen of them, each run once at startup,
//! were 0.1 MiB of every service's binary. Here the comparator is a trait
//! object and what is sorted is a list of indices, so the sort itself is
//! compiled once; what stays generic per element type is moving the
//! elements into the order found, a few instructions.

use std::cmp::Ordering;

/// Sorts `list` by `cmp`, keeping the order of equal elements (as
/// `slice::sort_by` does).
pub(crate) fn sort_by<T>(list: &mut Vec<T>, cmp: &dyn Fn(&T, &T) -> Ordering) {
    if list.len() < 2 {
        return;
    }
    let order = {
        let items: &[T] = list;
        order(items.len(), &|a, b| cmp(&items[a], &items[b]))
    };
    place(list, order);
}

/// Sorts `list` by the key `key` gives each element, computed once per
/// element (as `slice::sort_by_cached_key` does), keeping the order of
/// equal keys.
pub(crate) fn sort_by_cached_key<T, K: Ord>(list: &mut Vec<T>, key: impl FnMut(&T) -> K) {
    if list.len() < 2 {
        return;
    }
    let keys: Vec<K> = list.iter().map(key).collect();
    let order = order(keys.len(), &|a, b| keys[a].cmp(&keys[b]));
    place(list, order);
}

/// Sorts a short `list` by `cmp` in place, keeping the order of equal
/// elements: an insertion sort, for the lists of a few items sorted per request
/// or per route (an `Allow` list's methods, the codecs that may write an
/// answer, a node's regex tails), where `slice::sort_by` would add an
/// instance of its code for each (the regex tails' was 9.7 KB).
pub(crate) fn insertion_sort_by<T>(list: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    for i in 1..list.len() {
        let mut j = i;
        while j > 0 && cmp(&list[j - 1], &list[j]) == Ordering::Greater {
            list.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Moves the elements of `list` into `order` (a permutation of its indices).
fn place<T>(list: &mut Vec<T>, order: Vec<usize>) {
    let mut slots: Vec<Option<T>> = std::mem::take(list).into_iter().map(Some).collect();
    list.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// The stable order of `len` items compared by index.
fn order(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::sort_by;

    #[test]
    fn insertion_sort_sorts_by_the_comparator_and_keeps_ties_in_their_order() {
        let mut list = [(3, "a"), (1, "b"), (3, "c"), (2, "d"), (1, "e"), (3, "f")];
        super::insertion_sort_by(&mut list, |a, b| a.0.cmp(&b.0));
        assert_eq!(list, [(1, "b"), (1, "e"), (2, "d"), (3, "a"), (3, "c"), (3, "f")]);
        let mut one = [7];
        super::insertion_sort_by(&mut one, Ord::cmp);
        assert_eq!(one, [7]);
        super::insertion_sort_by(&mut [] as &mut [u8], Ord::cmp);
    }

    #[test]
    fn sorts_by_the_comparator_and_keeps_ties_in_their_order() {
        let mut list = vec![(3, "a"), (1, "b"), (3, "c"), (2, "d"), (1, "e"), (3, "f")];
        sort_by(&mut list, &|a, b| a.0.cmp(&b.0));
        assert_eq!(list, [(1, "b"), (1, "e"), (2, "d"), (3, "a"), (3, "c"), (3, "f")]);
    }

    #[test]
    fn agrees_with_the_standard_stable_sort_on_many_ties() {
        // Keys with many repeats; each element remembers its position.
        let keys: Vec<(u32, usize)> = (0..500).map(|i| ((i * 7919 % 13) as u32, i)).collect();
        let mut ours = keys.clone();
        sort_by(&mut ours, &|a, b| b.0.cmp(&a.0));
        let mut std_sorted = keys;
        std_sorted.sort_by_key(|b| std::cmp::Reverse(b.0));
        assert_eq!(ours, std_sorted);
    }

    #[test]
    fn sorts_by_a_key_computed_once_per_element() {
        let mut list = vec!["ccc", "a", "bb", "d", "ee"];
        let mut calls = 0;
        super::sort_by_cached_key(&mut list, |s| {
            calls += 1;
            s.len()
        });
        // Ties keep their order: "a" before "d", "bb" before "ee".
        assert_eq!(list, ["a", "d", "bb", "ee", "ccc"]);
        assert_eq!(calls, 5);
    }

    #[test]
    fn leaves_short_lists_alone() {
        let mut empty: Vec<u8> = Vec::new();
        sort_by(&mut empty, &|a, b| a.cmp(b));
        assert!(empty.is_empty());
        let mut one = vec![String::from("only")];
        sort_by(&mut one, &|a, b| a.cmp(b));
        assert_eq!(one, ["only"]);
    }
}
