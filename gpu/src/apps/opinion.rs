//! opinion, opinion finder: the sentiment of the tweets about a subject (4 data
//! structures): tweets, the subject's keywords, a sentiment lexicon (a hash
//! table of scored words and negations) and a score per tweet.

use rand::Rng;

use super::app::{chunk, par_for_each, App, Arg, Case, Fill, Output, POISON};
use crate::inputs;

pub struct Opinion;

/// The subject: lowercase words of at most 15 bytes.
pub const KEYWORDS: [&str; 6] = ["cache", "caches", "#cache", "l1", "#l1", "@sl1"];
/// Bytes per keyword slot (zero-padded).
pub const KEYWORD_BYTES: usize = 16;
/// The score of a tweet that is not about the subject.
pub const OFF_TOPIC: i8 = -128;

/// Sentiment words and their scores, strong and weak.
pub const SENTIMENT: [(&str, i32); 52] = [
    ("love", 2),
    ("loving", 2),
    ("great", 2),
    ("excellent", 2),
    ("amazing", 2),
    ("awesome", 2),
    ("best", 2),
    ("fantastic", 2),
    ("perfect", 2),
    ("brilliant", 2),
    ("wow", 2),
    ("good", 1),
    ("nice", 1),
    ("like", 1),
    ("likes", 1),
    ("fast", 1),
    ("faster", 1),
    ("happy", 1),
    ("cool", 1),
    ("fine", 1),
    ("better", 1),
    ("works", 1),
    ("thanks", 1),
    ("win", 1),
    ("smooth", 1),
    ("solid", 1),
    ("slow", -1),
    ("slower", -1),
    ("bad", -1),
    ("meh", -1),
    ("bug", -1),
    ("bugs", -1),
    ("buggy", -1),
    ("issue", -1),
    ("wrong", -1),
    ("sad", -1),
    ("worse", -1),
    ("broken", -1),
    ("lag", -1),
    ("fails", -1),
    ("annoying", -1),
    ("stalls", -1),
    ("hate", -2),
    ("awful", -2),
    ("terrible", -2),
    ("worst", -2),
    ("horrible", -2),
    ("useless", -2),
    ("crash", -2),
    ("crashes", -2),
    ("disaster", -2),
    ("garbage", -2),
];

/// Words that flip the score of the word right after them.
pub const NEGATORS: [&str; 10] = [
    "not", "no", "never", "don't", "isn't", "doesn't", "can't", "won't", "didn't", "nothing",
];

const SUBJECT: [&str; 10] = [
    "cache", "Cache", "CACHE", "caches", "#cache", "#Cache", "L1", "l1", "#L1", "@sl1",
];
const OTHER: [&str; 16] = [
    "today",
    "just",
    "my",
    "this",
    "new",
    "kernel",
    "build",
    "code",
    "so",
    "really",
    "again",
    "after",
    "update",
    "benchmark",
    "lol",
    "tbh",
];
const HASHTAGS: [&str; 6] = ["#gpu", "#hpc", "#perf", "#tech", "#devlife", "#fail"];

/// One lexicon slot, as the kernel's `struct Entry` lays it out (16 bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// FNV-1a hash of the lowercase word; 0 in an empty slot.
    pub hash: u64,
    pub score: i32,
    pub negator: i32,
}

fn lower(c: u8) -> u8 {
    c.to_ascii_lowercase()
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'#' | b'@' | b'\'' | b'_')
}

/// FNV-1a (64 bits) of the lowercase `word`.
pub fn hash(word: &[u8]) -> u64 {
    word.iter().fold(0xcbf29ce484222325, |h, &c| {
        (h ^ u64::from(lower(c))).wrapping_mul(0x100000001b3)
    })
}

/// The lexicon: `SENTIMENT` and `NEGATORS` in a power-of-two table at most
/// half full, filled by linear probing.
pub fn lexicon() -> Vec<Entry> {
    let words = SENTIMENT.len() + NEGATORS.len();
    let mut table = vec![Entry::default(); (2 * words).next_power_of_two()];
    let mask = table.len() - 1;
    let entries = SENTIMENT
        .iter()
        .map(|&(w, score)| (w, score, 0))
        .chain(NEGATORS.iter().map(|&w| (w, 0, 1)));
    for (word, score, negator) in entries {
        let hash = hash(word.as_bytes());
        assert_ne!(hash, 0);
        let mut slot = hash as usize & mask;
        while table[slot].hash != 0 {
            slot = (slot + 1) & mask;
        }
        table[slot] = Entry {
            hash,
            score,
            negator,
        };
    }
    table
}

/// Little-endian bytes of the lexicon, as the kernel reads it.
pub fn lexicon_bytes(lexicon: &[Entry]) -> Vec<u8> {
    lexicon
        .iter()
        .flat_map(|e| {
            let mut b = e.hash.to_le_bytes().to_vec();
            b.extend_from_slice(&e.score.to_le_bytes());
            b.extend_from_slice(&e.negator.to_le_bytes());
            b
        })
        .collect()
}

/// The keywords in zero-padded slots.
pub fn keyword_slots(keywords: &[&str]) -> Vec<u8> {
    let mut out = vec![0u8; KEYWORD_BYTES * keywords.len()];
    for (k, word) in keywords.iter().enumerate() {
        assert!(word.len() < KEYWORD_BYTES);
        out[KEYWORD_BYTES * k..][..word.len()].copy_from_slice(word.as_bytes());
    }
    out
}

fn pick<'a>(r: &mut impl Rng, words: &[&'a str]) -> &'a str {
    words[r.random_range(0..words.len())]
}

/// Tweets, one a line, exactly `bytes` bytes (the last one may be cut):
/// retweets, mentions, hashtags, links, and words of which some are about the
/// subject, some carry a sentiment and some negate it, in mixed case.
pub fn tweets(bytes: usize, seed: u64) -> Vec<u8> {
    let mut r = inputs::rng(seed);
    let mut out = Vec::with_capacity(bytes + 400);
    while out.len() < bytes {
        if r.random_range(0..10) == 0 {
            out.extend_from_slice(format!("RT @user{}: ", r.random_range(0..100_000)).as_bytes());
        } else if r.random_range(0..4) == 0 {
            out.extend_from_slice(format!("@user{} ", r.random_range(0..100_000)).as_bytes());
        }
        for w in 0..r.random_range(4..22) {
            let word = match r.random_range(0..100) {
                0..4 => pick(&mut r, &SUBJECT),
                4..18 => SENTIMENT[r.random_range(0..SENTIMENT.len())].0,
                18..23 => pick(&mut r, &NEGATORS),
                23..27 => pick(&mut r, &HASHTAGS),
                27..55 => pick(&mut r, &OTHER),
                _ => pick(&mut r, &inputs::WORDS),
            };
            match r.random_range(0..20) {
                0 => out.extend(word.bytes().map(|c| c.to_ascii_uppercase())),
                1..4 if w == 0 => {
                    let mut chars = word.bytes();
                    out.extend(chars.next().map(|c| c.to_ascii_uppercase()));
                    out.extend(chars);
                }
                _ => out.extend_from_slice(word.as_bytes()),
            }
            out.extend_from_slice(match r.random_range(0..30) {
                0 => b", ",
                1 => b". ",
                2 => b"! ",
                3 => b"!! ",
                4 => b"? ",
                5 => b" :) ",
                _ => b" ",
            });
        }
        if r.random_range(0..5) == 0 {
            out.extend_from_slice(b"https://t.co/");
            out.extend((0..10).map(|_| b"abcdefghijkLMNOPQRS0123456789"[r.random_range(0..29)]));
        }
        out.push(b'\n');
    }
    out.truncate(bytes);
    out
}

/// The score of the tweet that starts at `i`, as the kernel computes it.
pub fn score(tweets: &[u8], i: usize, keywords: &[u8], lexicon: &[Entry]) -> i8 {
    let n = tweets.len();
    let mask = lexicon.len() - 1;
    let nkeywords = keywords.len() / KEYWORD_BYTES;
    let (mut score, mut about, mut negate) = (0i32, false, false);
    let mut j = i;
    while j < n && tweets[j] != b'\n' {
        if !is_word(tweets[j]) {
            j += 1;
            continue;
        }
        let w = j;
        let mut h = 0xcbf29ce484222325u64;
        while j < n && is_word(tweets[j]) {
            h = (h ^ u64::from(lower(tweets[j]))).wrapping_mul(0x100000001b3);
            j += 1;
        }
        let len = j - w;
        let mut k = 0;
        while k < nkeywords && !about {
            let key = &keywords[KEYWORD_BYTES * k..];
            let mut m = 0;
            while m < len && m < KEYWORD_BYTES && key[m] == lower(tweets[w + m]) {
                m += 1;
            }
            about = m == len && (len == KEYWORD_BYTES || key[len] == 0);
            k += 1;
        }
        let mut slot = h as usize & mask;
        while lexicon[slot].hash != 0 && lexicon[slot].hash != h {
            slot = (slot + 1) & mask;
        }
        let mut next_negate = false;
        if lexicon[slot].hash == h {
            if lexicon[slot].negator != 0 {
                next_negate = true;
            } else {
                score += if negate {
                    -lexicon[slot].score
                } else {
                    lexicon[slot].score
                };
            }
        }
        negate = next_negate;
    }
    if about {
        score.clamp(-127, 127) as i8
    } else {
        OFF_TOPIC
    }
}

/// The score of each tweet at its first byte, the poison elsewhere (the kernel
/// writes tweet starts only).
pub fn reference(tweets: &[u8], keywords: &[u8], lexicon: &[Entry]) -> Vec<u8> {
    let mut out = vec![POISON; tweets.len()];
    par_for_each(&mut out, |i, x| {
        if i == 0 || tweets[i - 1] == b'\n' {
            *x = score(tweets, i, keywords, lexicon) as u8;
        }
    });
    out
}

impl App for Opinion {
    fn name(&self) -> &'static str {
        "opinion"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let tweets = tweets(bytes, seed);
        let keywords = keyword_slots(&KEYWORDS);
        let lexicon = lexicon();
        Case {
            outputs: vec![Output {
                bytes: tweets.len(),
                fill: Fill::Byte(POISON),
            }],
            expected: vec![reference(&tweets, &keywords, &lexicon)],
            inputs: vec![tweets, keywords, lexicon_bytes(&lexicon)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = case.inputs[0].len() as u64;
        vec![
            Arg::Input(0),
            Arg::Input(1),
            Arg::Input(2),
            Arg::Output(0),
            Arg::U64(n),
            Arg::U64(chunk(n, threads)),
            Arg::U32((case.inputs[1].len() / KEYWORD_BYTES) as u32),
            Arg::U64((case.inputs[2].len() / 16) as u64 - 1),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(text: &[u8]) -> Vec<i8> {
        let keywords = keyword_slots(&KEYWORDS);
        let lexicon = lexicon();
        let out = reference(text, &keywords, &lexicon);
        (0..text.len())
            .filter(|&i| i == 0 || text[i - 1] == b'\n')
            .map(|i| out[i] as i8)
            .collect()
    }

    #[test]
    fn reference_scores_tweets_about_the_subject() {
        let text = b"the L1 cache is GREAT, love it\n\
                     great and good but no keyword\n\
                     #cache not good!! never slow\n\
                     caches are slow... \n\
                     Cacheless is fast\n\
                     \n\
                     @sl1 don't hate, not not bad\n\
                     l1 wow";
        assert_eq!(
            scores(text),
            [4, OFF_TOPIC, 0, -1, OFF_TOPIC, OFF_TOPIC, 3, 2]
        );
    }

    #[test]
    fn reference_writes_tweet_starts_only() {
        let text = b"cache good\nbad\n";
        let out = reference(text, &keyword_slots(&KEYWORDS), &lexicon());
        assert_eq!(out[0], 1);
        assert_eq!(out[11], OFF_TOPIC as u8);
        assert!(out
            .iter()
            .enumerate()
            .all(|(i, &b)| i == 0 || i == 11 || b == POISON));
    }

    #[test]
    fn long_words_keyword_slots_and_clamping() {
        let long = b"cacheCACHEcacheCA cacheCACHEcacheC #l1_ l1";
        assert_eq!(scores(long), [0]);
        assert_eq!(scores(&long[..39]), [OFF_TOPIC]);
        let full = keyword_slots(&["abcdefghijklmno"]);
        let out = reference(b"ABCDEFGHIJKLMNO great", &full, &lexicon());
        assert_eq!(out[0], 2);
        let out = reference(b"ABCDEFGHIJKLMNOP great", &full, &lexicon());
        assert_eq!(out[0], OFF_TOPIC as u8);
        // Scores are clamped.
        assert_eq!(scores(" love".repeat(70).as_bytes()), [OFF_TOPIC]);
        assert_eq!(
            scores(format!("L1{}", " love".repeat(70)).as_bytes()),
            [127]
        );
        assert_eq!(
            scores(format!("L1{}", " hate".repeat(70)).as_bytes()),
            [-127]
        );
    }

    #[test]
    fn the_lexicon_finds_every_word() {
        let lexicon = lexicon();
        assert!(lexicon.len().is_power_of_two());
        for (word, want) in SENTIMENT {
            let text = format!("cache {word}");
            assert_eq!(scores(text.as_bytes()), [want as i8], "{word}");
            let text = format!("cache not {}", word.to_uppercase());
            assert_eq!(scores(text.as_bytes()), [-want as i8], "{word}");
        }
        assert_eq!(lexicon_bytes(&lexicon).len(), 16 * lexicon.len());
    }

    #[test]
    fn generated_tweets_have_opinions_about_the_subject() {
        let text = tweets(200_000, 3);
        assert_eq!(text.len(), 200_000);
        assert_eq!(text, tweets(200_000, 3));
        let s = scores(&text);
        assert!(s.len() > 1000, "{} tweets", s.len());
        let about: Vec<_> = s.iter().filter(|&&x| x != OFF_TOPIC).collect();
        assert!(about.len() * 5 > s.len() && about.len() * 5 < s.len() * 4);
        assert!(about.iter().filter(|&&&x| x > 0).count() * 5 > about.len());
        assert!(about.iter().filter(|&&&x| x < 0).count() * 5 > about.len());
    }
}
