//! The graph of references between internal general entities: each entity's nesting depth,
//! expansion cost and recursion, computed from the replacement texts without expanding
//! anything.

use std::collections::{HashMap, VecDeque};

use super::decode::is_name_char;
use super::dtd::{Entity, Kind};

/// The internal general entities a replacement text refers to, with how many times.
fn references_in(text: &str, index: &HashMap<String, usize>) -> HashMap<usize, u64> {
    let mut out = HashMap::new();
    let mut rest = text;
    while let Some(k) = rest.find('&') {
        rest = &rest[k + 1..];
        if rest.starts_with('#') {
            continue;
        }
        let end = rest
            .char_indices()
            .find(|&(_, c)| !is_name_char(c))
            .map_or(rest.len(), |(n, _)| n);
        if rest[end..].starts_with(';')
            && let Some(&target) = index.get(&rest[..end])
        {
            *out.entry(target).or_insert(0) += 1;
        }
        rest = &rest[end..];
    }
    out
}

/// Height, cost and recursion of every internal entity, bottom-up over the reference graph
/// (Kahn's algorithm: an entity is done when everything it refers to is; what is never done is
/// on or above a cycle).
pub(super) fn analyze(general: &mut [Entity], index: &HashMap<String, usize>) {
    let n = general.len();
    let children: Vec<Vec<(usize, u64)>> = general
        .iter()
        .map(|e| match &e.kind {
            Kind::Internal(text) => references_in(text, index)
                .into_iter()
                .filter(|&(k, _)| matches!(general[k].kind, Kind::Internal(_)))
                .collect(),
            Kind::External { .. } => Vec::new(),
        })
        .collect();
    let mut parents = vec![Vec::new(); n];
    let mut pending = vec![0usize; n];
    for (p, kids) in children.iter().enumerate() {
        pending[p] = kids.len();
        for &(k, _) in kids {
            parents[k].push(p);
        }
    }
    let mut queue: VecDeque<usize> = (0..n).filter(|&k| pending[k] == 0).collect();
    let mut done = vec![false; n];
    while let Some(k) = queue.pop_front() {
        done[k] = true;
        let own = match &general[k].kind {
            Kind::Internal(text) => text.len() as u64,
            Kind::External { .. } => 0,
        };
        let mut height = 0u32;
        let mut cost = own;
        for &(c, times) in &children[k] {
            height = height.max(general[c].height);
            cost = cost.saturating_add(times.saturating_mul(general[c].cost));
        }
        general[k].height = height.saturating_add(1);
        general[k].cost = cost;
        for &p in &parents[k] {
            pending[p] -= 1;
            if pending[p] == 0 {
                queue.push_back(p);
            }
        }
    }
    for (k, e) in general.iter_mut().enumerate() {
        e.recursive = !done[k];
    }
}
