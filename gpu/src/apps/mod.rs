//! The applications of the suite. An app says how to build its inputs, which
//! kernel to launch with which arguments, and what the output must be. The
//! do-no-harm kernels (module `harm`) are apps too; `suites` holds both.

mod affinity;
mod app;
mod dna;
mod grep;
mod invindex;
mod kmeans;
mod matmul;
mod opinion;
mod pvc;
mod upper;
mod wc;

pub use affinity::Affinity;
pub use dna::Dna;
pub use grep::Grep;
pub use invindex::InvIndex;
pub use kmeans::Kmeans;
pub use matmul::Matmul;
pub use opinion::Opinion;
pub use pvc::Pvc;
pub use upper::Upper;
pub use wc::Wc;

pub use app::*;

/// Every app of the suite (the paper's ten).
pub fn all() -> Vec<&'static dyn App> {
    vec![
        &Upper, &Wc, &Dna, &Opinion, &InvIndex, &Pvc, &Affinity, &Matmul, &Grep, &Kmeans,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_reports_the_first_difference() {
        let case = Case {
            inputs: vec![],
            outputs: vec![Output {
                bytes: 4,
                fill: Fill::Byte(POISON),
            }],
            expected: vec![vec![1, 2, 3, 4]],
        };
        assert!(check(&case, &[vec![1, 2, 3, 4]]).is_ok());
        let err = check(&case, &[vec![1, 9, 3, 8]]).unwrap_err();
        assert!(err.contains("2 byte(s) differ, first at 1"), "{err}");
        assert!(check(&case, &[vec![1, 2]]).is_err());
    }

    #[test]
    fn every_apps_reference_passes_its_check() {
        for app in all() {
            let case = app.case(4099, 1);
            assert_eq!(case.outputs.len(), case.expected.len());
            assert!(check(&case, &case.expected).is_ok());
            let args = app.args(&case, 96);
            assert!(args.contains(&Arg::Input(0)) && args.contains(&Arg::Output(0)));
            assert_eq!(check_args(&case, &args), Ok(()), "{}", app.name());
        }
    }

    #[test]
    fn arguments_must_name_buffers_of_the_case() {
        let case = Case {
            inputs: vec![vec![0; 8]],
            outputs: vec![Output {
                bytes: 8,
                fill: Fill::Input(0),
            }],
            expected: vec![vec![0; 8]],
        };
        let ok = [
            Arg::Output(0),
            Arg::OutputAt(0, 4),
            Arg::Input(0),
            Arg::U64(2),
        ];
        assert_eq!(check_args(&case, &ok), Ok(()));
        for bad in [
            Arg::OutputAt(0, 8),
            Arg::OutputAt(1, 0),
            Arg::Input(1),
            Arg::Output(1),
        ] {
            assert!(
                check_args(&case, std::slice::from_ref(&bad)).is_err(),
                "{bad:?}"
            );
        }
        let mut resized = case.clone();
        resized.outputs[0].bytes = 12;
        let err = check_args(&resized, &ok).unwrap_err();
        assert!(err.contains("filled from input 0 of 8 bytes"), "{err}");
    }

    #[test]
    fn outputs_start_filled_or_as_a_copy_of_an_input() {
        let inputs = vec![vec![1, 2, 3], vec![7, 8]];
        let poisoned = Output {
            bytes: 3,
            fill: Fill::Byte(POISON),
        };
        assert_eq!(poisoned.initial(&inputs), [POISON; 3]);
        let in_place = Output {
            bytes: 2,
            fill: Fill::Input(1),
        };
        assert_eq!(in_place.initial(&inputs), [7, 8]);
    }

    #[test]
    #[should_panic(expected = "has its size")]
    fn an_output_copied_from_an_input_of_another_size_is_refused() {
        Output {
            bytes: 4,
            fill: Fill::Input(0),
        }
        .initial(&[vec![1, 2, 3]]);
    }

    #[test]
    fn par_for_each_visits_every_item_once() {
        for n in [0, 1, 7, 1000] {
            let mut out = vec![0usize; n];
            par_for_each(&mut out, |i, x| *x += i + 1);
            assert!(out.iter().enumerate().all(|(i, &x)| x == i + 1));
        }
    }

    #[test]
    fn chunks_cover_the_input() {
        assert_eq!(chunk(100, 7), 15);
        assert_eq!(chunk(0, 7), 0);
        assert!(chunk(4099, 96) * 96 >= 4099);
    }
}
