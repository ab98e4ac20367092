//! Deterministic input generators (seeded, so every variant and every run sees
//! the same bytes).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The words of `text`.
pub const WORDS: [&str; 24] = [
    "the",
    "of",
    "and",
    "a",
    "to",
    "in",
    "is",
    "you",
    "that",
    "it",
    "he",
    "was",
    "for",
    "on",
    "are",
    "as",
    "with",
    "his",
    "they",
    "GPU",
    "cache",
    "memory",
    "Streaming",
    "L1",
];

/// English-like text of exactly `bytes` bytes: words of mixed case, spaces,
/// punctuation and lines of 40 to 120 characters.
pub fn text(bytes: usize, seed: u64) -> Vec<u8> {
    let mut r = rng(seed);
    let mut out = Vec::with_capacity(bytes + 16);
    let mut line = 0usize;
    let mut line_len = r.random_range(40..120);
    while out.len() < bytes {
        let word = WORDS[r.random_range(0..WORDS.len())];
        out.extend_from_slice(word.as_bytes());
        line += word.len() + 1;
        match r.random_range(0..20) {
            0 => out.extend_from_slice(b", "),
            1 => out.extend_from_slice(b". "),
            _ => out.push(b' '),
        }
        if line >= line_len {
            out.push(b'\n');
            line = 0;
            line_len = r.random_range(40..120);
        }
    }
    out.truncate(bytes);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_deterministic_sized_and_has_lines() {
        let a = text(10_000, 7);
        assert_eq!(a.len(), 10_000);
        assert_eq!(a, text(10_000, 7));
        assert_ne!(a, text(10_000, 8));
        let lines = a.iter().filter(|&&c| c == b'\n').count();
        assert!((60..300).contains(&lines), "{lines} lines");
        assert!(a.iter().any(|c| c.is_ascii_lowercase()));
        assert!(a.iter().any(|c| c.is_ascii_uppercase()));
    }
}
