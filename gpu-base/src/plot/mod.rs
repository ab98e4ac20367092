//! What the app suite's plots and the probe's share: the font, the backend
//! that measures and draws text with it, the error type.

use std::path::PathBuf;

pub mod backend;
pub mod font;

#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("no font for the plots' text: {0}")]
    Font(String),
    #[error("cannot create the plot directory {}: {source}", path.display())]
    Dir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot draw {}: {message}", path.display())]
    Draw { path: PathBuf, message: String },
}
