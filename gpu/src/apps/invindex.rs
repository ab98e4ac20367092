//! invindex, inverted index: which documents link to which (3 data
//! structures), over fixed-size HTML documents.

use rand::Rng;

use super::app::{chunk, le, App, Arg, Case, Fill, Output};
use crate::inputs;

pub struct InvIndex;

pub const DOC_BYTES: usize = 4096;
const KEY: &[u8] = b"href=\"/doc/";

/// Documents of exactly `DOC_BYTES` bytes: text and links to other documents.
pub fn html(bytes: usize, seed: u64) -> Vec<u8> {
    let docs = (bytes / DOC_BYTES).max(1);
    let words = inputs::text(docs * DOC_BYTES, seed);
    let mut r = inputs::rng(seed ^ 0x51);
    let mut out = Vec::with_capacity(docs * DOC_BYTES);
    for d in 0..docs {
        let mut doc = format!("<html><head><title>doc {d}</title></head><body>\n").into_bytes();
        let mut at = d * DOC_BYTES;
        while doc.len() < DOC_BYTES - 64 {
            let take = r.random_range(20..200).min(DOC_BYTES - 64 - doc.len());
            doc.extend_from_slice(&words[at..at + take]);
            at += take;
            let target = r.random_range(0..docs);
            doc.extend_from_slice(format!("<a href=\"/doc/{target}\">more</a> ").as_bytes());
        }
        doc.truncate(DOC_BYTES - 16);
        doc.extend_from_slice(b"</body></html>\n");
        doc.resize(DOC_BYTES, b' ');
        out.extend_from_slice(&doc);
    }
    out
}

/// (links to each document, XOR of a hash of every linking document).
pub fn reference(html: &[u8], docs: usize) -> (Vec<u64>, Vec<u64>) {
    let mut links = vec![0u64; docs];
    let mut hash = vec![0u64; docs];
    for i in 0..html.len() {
        if !html[i..].starts_with(KEY) {
            continue;
        }
        let digits: Vec<u8> = html[i + KEY.len()..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .copied()
            .collect();
        let id: u64 = digits.iter().fold(0u64, |acc, d| {
            acc.wrapping_mul(10).wrapping_add(u64::from(d - b'0'))
        });
        if (id as usize) < docs {
            let source = (i / DOC_BYTES) as u64;
            links[id as usize] += 1;
            hash[id as usize] ^= (source + 1).wrapping_mul(0x9E3779B97F4A7C15);
        }
    }
    (links, hash)
}

impl App for InvIndex {
    fn name(&self) -> &'static str {
        "invindex"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let html = html(bytes, seed);
        let docs = html.len() / DOC_BYTES;
        let (links, hash) = reference(&html, docs);
        Case {
            inputs: vec![html],
            // Counts and hashes are accumulated atomically: they start at zero.
            outputs: vec![
                Output {
                    bytes: 8 * docs,
                    fill: Fill::Byte(0),
                },
                Output {
                    bytes: 8 * docs,
                    fill: Fill::Byte(0),
                },
            ],
            expected: vec![le(&links), le(&hash)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = case.inputs[0].len() as u64;
        vec![
            Arg::Input(0),
            Arg::Output(0),
            Arg::Output(1),
            Arg::U64(n),
            Arg::U64(chunk(n, threads)),
            Arg::U64(DOC_BYTES as u64),
            Arg::U64(n / DOC_BYTES as u64),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_fixed_size_and_linked() {
        let html = html(10 * DOC_BYTES + 100, 2);
        assert_eq!(html.len(), 10 * DOC_BYTES);
        let (links, hash) = reference(&html, 10);
        assert!(links.iter().sum::<u64>() > 50);
        assert!(hash.iter().any(|&h| h != 0));
    }
}
