//! Dominators and natural loops of a control-flow graph.
//!
//! The LLVM C API offers neither LoopInfo nor a dominator tree, so both are
//! computed here on block indices (0 = entry), with petgraph's dominators.

use std::collections::BTreeSet;

use petgraph::algo::dominators::{simple_fast, Dominators};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{depth_first_search, DfsEvent};

/// One natural loop: all back edges into `header` merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub header: usize,
    /// Blocks of the loop, the header included (sorted).
    pub blocks: BTreeSet<usize>,
    /// Sources of the back edges.
    pub latches: Vec<usize>,
    /// Blocks outside the loop that loop blocks branch to.
    pub exits: BTreeSet<usize>,
    /// Index (in `LoopForest::loops`) of the innermost enclosing loop.
    pub parent: Option<usize>,
    /// 1 for a top-level loop.
    pub depth: u32,
}

/// All natural loops of a function, outer loops before the loops they contain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopForest {
    pub loops: Vec<Loop>,
    /// Edges that go back to a block which does not dominate their source: a
    /// cycle with more than one entry (irreducible control flow).
    pub irreducible_edges: Vec<(usize, usize)>,
    /// Blocks not reachable from the entry.
    pub unreachable: BTreeSet<usize>,
    /// Each block's immediate dominator (`None` for the entry and
    /// unreachable blocks).
    pub immediate_dominators: Vec<Option<usize>>,
    /// Each block's predecessors, in edge order.
    pub predecessors: Vec<Vec<usize>>,
}

impl LoopForest {
    /// Innermost loop containing `block`.
    pub fn innermost_loop_of(&self, block: usize) -> Option<usize> {
        self.loops
            .iter()
            .enumerate()
            .filter(|(_, l)| l.blocks.contains(&block))
            .max_by_key(|(_, l)| l.depth)
            .map(|(i, _)| i)
    }

    /// Whether loop `l` (an index in `loops`) has no loop inside it.
    pub fn is_innermost(&self, l: usize) -> bool {
        !self.loops.iter().any(|o| o.parent == Some(l))
    }

    /// Loops strictly inside `outer`.
    pub fn nested_in<'a>(&'a self, outer: &'a Loop) -> impl Iterator<Item = &'a Loop> + 'a {
        self.loops
            .iter()
            .filter(move |l| l.depth > outer.depth && l.blocks.is_subset(&outer.blocks))
    }

    /// The blocks that dominate `block`, from `block` itself up to the
    /// entry (empty for an unreachable block).
    pub fn dominators(&self, block: usize) -> Vec<usize> {
        if self.unreachable.contains(&block) || block >= self.immediate_dominators.len() {
            return Vec::new();
        }
        let mut chain = vec![block];
        while let Some(d) = self.immediate_dominators[*chain.last().unwrap()] {
            chain.push(d);
        }
        chain
    }

    /// Top-level loop containing `block`.
    pub fn outermost_loop_of(&self, block: usize) -> Option<usize> {
        self.loops
            .iter()
            .position(|l| l.depth == 1 && l.blocks.contains(&block))
    }
}

fn dominates(doms: &Dominators<NodeIndex>, a: NodeIndex, b: NodeIndex) -> bool {
    doms.dominators(b)
        .map(|mut chain| chain.any(|d| d == a))
        .unwrap_or(false)
}

/// Finds the natural loops of the graph with `num_blocks` blocks and `edges`.
pub fn find_loops(num_blocks: usize, edges: &[(usize, usize)]) -> LoopForest {
    if num_blocks == 0 {
        return LoopForest::default();
    }
    let mut graph = DiGraph::<(), ()>::with_capacity(num_blocks, edges.len());
    let nodes: Vec<NodeIndex> = (0..num_blocks).map(|_| graph.add_node(())).collect();
    for &(from, to) in edges {
        graph.add_edge(nodes[from], nodes[to], ());
    }
    let doms = simple_fast(&graph, nodes[0]);
    let reachable = |b: usize| b == 0 || doms.immediate_dominator(nodes[b]).is_some();

    let mut forest = LoopForest {
        unreachable: (0..num_blocks).filter(|&b| !reachable(b)).collect(),
        immediate_dominators: nodes
            .iter()
            .map(|&n| doms.immediate_dominator(n).map(|d| d.index()))
            .collect(),
        predecessors: (0..num_blocks)
            .map(|b| edges.iter().filter(|e| e.1 == b).map(|e| e.0).collect())
            .collect(),
        ..LoopForest::default()
    };

    // Back edges grouped by header, in block order for a stable result.
    let mut headers: Vec<usize> = Vec::new();
    let mut latches_of: Vec<Vec<usize>> = vec![Vec::new(); num_blocks];
    for &(from, to) in edges {
        if !reachable(from) {
            continue;
        }
        if dominates(&doms, nodes[to], nodes[from]) {
            if latches_of[to].is_empty() {
                headers.push(to);
            }
            if !latches_of[to].contains(&from) {
                latches_of[to].push(from);
            }
        }
    }
    headers.sort_unstable();

    // Retreating edges of a depth-first walk whose target does not dominate their
    // source: a cycle entered in more than one place.
    depth_first_search(&graph, Some(nodes[0]), |event| {
        if let DfsEvent::BackEdge(from, to) = event {
            if !dominates(&doms, to, from) {
                forest.irreducible_edges.push((from.index(), to.index()));
            }
        }
    });

    for header in headers {
        let mut blocks = BTreeSet::from([header]);
        let mut work: Vec<usize> = latches_of[header].clone();
        while let Some(b) = work.pop() {
            if blocks.insert(b) {
                work.extend(
                    forest.predecessors[b]
                        .iter()
                        .copied()
                        .filter(|&p| reachable(p)),
                );
            }
        }
        let exits = blocks
            .iter()
            .flat_map(|&b| edges.iter().filter(move |e| e.0 == b).map(|e| e.1))
            .filter(|s| !blocks.contains(s))
            .collect();
        forest.loops.push(Loop {
            header,
            blocks,
            latches: latches_of[header].clone(),
            exits,
            parent: None,
            depth: 0,
        });
    }

    // Outer loops first: a loop's parent is the smallest loop that strictly contains it.
    forest
        .loops
        .sort_by_key(|l| (std::cmp::Reverse(l.blocks.len()), l.header));
    for i in 0..forest.loops.len() {
        let parent = (0..forest.loops.len())
            .filter(|&j| {
                j != i
                    && forest.loops[j].blocks.len() > forest.loops[i].blocks.len()
                    && forest.loops[j].blocks.contains(&forest.loops[i].header)
            })
            .min_by_key(|&j| forest.loops[j].blocks.len());
        forest.loops[i].parent = parent;
    }
    for i in 0..forest.loops.len() {
        let mut depth = 1;
        let mut p = forest.loops[i].parent;
        while let Some(j) = p {
            depth += 1;
            p = forest.loops[j].parent;
        }
        forest.loops[i].depth = depth;
    }
    forest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_line_has_no_loops() {
        let f = find_loops(3, &[(0, 1), (1, 2)]);
        assert!(f.loops.is_empty());
        assert!(f.irreducible_edges.is_empty());
    }

    #[test]
    fn single_loop_with_preheader_and_exit() {
        // 0 -> 1 (header) -> 2 (latch) -> 1, 1 -> 3 (exit)
        let f = find_loops(4, &[(0, 1), (1, 2), (2, 1), (1, 3)]);
        assert_eq!(f.loops.len(), 1);
        let l = &f.loops[0];
        assert_eq!(l.header, 1);
        assert_eq!(l.blocks, BTreeSet::from([1, 2]));
        assert_eq!(l.latches, vec![2]);
        assert_eq!(l.exits, BTreeSet::from([3]));
        assert_eq!(l.depth, 1);
    }

    #[test]
    fn nested_loops_get_parent_and_depth() {
        // outer header 1, inner header 2 with self loop, outer latch 3
        let edges = [(0, 1), (1, 2), (2, 2), (2, 3), (3, 1), (3, 4)];
        let f = find_loops(5, &edges);
        assert_eq!(f.loops.len(), 2);
        assert_eq!(f.loops[0].header, 1);
        assert_eq!(f.loops[0].depth, 1);
        assert_eq!(f.loops[1].header, 2);
        assert_eq!(f.loops[1].depth, 2);
        assert_eq!(f.loops[1].parent, Some(0));
        assert_eq!(f.innermost_loop_of(2), Some(1));
        assert_eq!(f.outermost_loop_of(2), Some(0));
    }

    #[test]
    fn two_back_edges_merge_into_one_loop() {
        let edges = [(0, 1), (1, 2), (1, 3), (2, 1), (3, 1), (1, 4)];
        let f = find_loops(5, &edges);
        assert_eq!(f.loops.len(), 1);
        assert_eq!(f.loops[0].latches.len(), 2);
    }

    #[test]
    fn irreducible_cycle_is_reported_not_a_loop() {
        // 0 branches into both 1 and 2, which branch to each other.
        let edges = [(0, 1), (0, 2), (1, 2), (2, 1), (1, 3)];
        let f = find_loops(4, &edges);
        assert!(f.loops.is_empty());
        assert!(!f.irreducible_edges.is_empty());
    }

    #[test]
    fn diamond_inside_a_loop_is_reducible() {
        // header 1 branches to 2 or 3, both join in 4, the latch.
        let edges = [(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (4, 1), (1, 5)];
        let f = find_loops(6, &edges);
        assert_eq!(f.loops.len(), 1);
        assert_eq!(f.loops[0].blocks, BTreeSet::from([1, 2, 3, 4]));
        assert!(f.irreducible_edges.is_empty());
    }

    #[test]
    fn dominators_run_from_the_block_to_the_entry() {
        // 0 -> 1 -> {2, 3} -> 4: 4's dominators are 4, 1, 0.
        let f = find_loops(6, &[(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (5, 4)]);
        assert_eq!(f.dominators(4), [4, 1, 0]);
        assert_eq!(f.dominators(0), [0]);
        assert!(f.dominators(5).is_empty());
        assert_eq!(f.predecessors[4], [2, 3, 5]);
    }

    #[test]
    fn unreachable_blocks_are_listed() {
        let f = find_loops(3, &[(0, 1), (2, 2)]);
        assert_eq!(f.unreachable, BTreeSet::from([2]));
        assert!(f.loops.is_empty());
    }
}
