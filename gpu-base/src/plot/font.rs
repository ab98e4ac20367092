//! The plots' font: DejaVu Sans, read at run time from `$SL1_PLOT_FONT` or from
//! where Linux distributions install it (Debian: package `fonts-dejavu-core`,
//! which `ci/setup` installs). It measures text for the layout of both
//! formats and rasterises the PNG's text (glyphs placed with their side
//! bearings and kerning, at sub-pixel positions); the SVG names the family and
//! leaves drawing to the viewer.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ab_glyph::{point, Font, FontArc, PxScale, ScaleFont};
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::FontStyle;
use plotters_backend::{BackendColor, BackendTextStyle, FontTransform};

/// The family the SVG asks for.
pub const FAMILY: &str = "sans-serif";

/// Environment variable naming a TrueType/OpenType file to use instead.
pub const FONT_ENV: &str = "SL1_PLOT_FONT";

/// DejaVu Sans where Debian/Ubuntu, Fedora, Arch and Alpine install it.
pub const CANDIDATES: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
];

/// plotters' text size is 1.24 times the em (its SVG backend writes
/// `font-size` as size / 1.24); the PNG follows so that both look alike.
const SIZE_PER_EM: f32 = 1.24;

/// The file to use: `env` (the value of [`FONT_ENV`]) when set, else the first
/// candidate that exists. The error says what was tried and what to do.
pub fn locate(env: Option<OsString>, candidates: &[&str]) -> Result<PathBuf, String> {
    if let Some(path) = env.filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(format!(
                "{FONT_ENV}={} is not a file; point it at a TrueType font",
                path.display()
            ))
        };
    }
    candidates
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .ok_or_else(|| {
            format!(
                "none of {} exists; install DejaVu Sans (Debian: apt-get install fonts-dejavu-core, \
                 which ci/setup does) or set {FONT_ENV} to a TrueType font file",
                candidates.join(", ")
            )
        })
}

/// A regular and a bold face (the regular one again when no bold file lies
/// beside it).
pub struct Fonts {
    pub path: PathBuf,
    regular: FontArc,
    bold: FontArc,
}

/// A line of text laid out at the origin: its advance and vertical metrics in
/// pixels, and where its glyphs go.
struct Line {
    width: f32,
    ascent: f32,
    descent: f32,
    /// Height of a lowercase `x`: the SVG centres text on half of it.
    x_height: f32,
    glyphs: Vec<ab_glyph::Glyph>,
}

impl Fonts {
    pub fn load(path: &Path) -> Result<Self, String> {
        let regular = read(path)?;
        let bold = match path.file_stem() {
            Some(stem) => path.with_file_name(format!("{}-Bold.ttf", stem.to_string_lossy())),
            None => PathBuf::new(),
        };
        let bold = if bold.is_file() {
            read(&bold)?
        } else {
            regular.clone()
        };
        Ok(Self {
            path: path.to_path_buf(),
            regular,
            bold,
        })
    }

    fn face(&self, style: FontStyle) -> &FontArc {
        match style {
            FontStyle::Bold => &self.bold,
            _ => &self.regular,
        }
    }

    fn line(&self, text: &str, size: f64, style: FontStyle) -> Line {
        let font = self.face(style);
        let em = size as f32 / SIZE_PER_EM;
        let units = font.units_per_em().unwrap_or(1000.0);
        let scaled = font.as_scaled(PxScale::from(em * font.height_unscaled() / units));
        let x_height = scaled
            .outline_glyph(scaled.scaled_glyph('x'))
            .map(|g| -g.px_bounds().min.y)
            .unwrap_or(em * 0.5);
        let mut caret = 0.0;
        let mut previous = None;
        let mut glyphs = Vec::new();
        for c in text.chars() {
            let mut glyph = scaled.scaled_glyph(c);
            if let Some(p) = previous {
                caret += scaled.kern(p, glyph.id);
            }
            glyph.position = point(caret, 0.0);
            caret += scaled.h_advance(glyph.id);
            previous = Some(glyph.id);
            glyphs.push(glyph);
        }
        Line {
            width: caret,
            ascent: scaled.ascent(),
            descent: scaled.descent(),
            x_height,
            glyphs,
        }
    }

    /// Width and height of `text` in pixels.
    pub fn measure(&self, text: &str, size: f64, style: FontStyle) -> (u32, u32) {
        let line = self.line(text, size, style);
        (
            line.width.ceil() as u32,
            (line.ascent - line.descent).ceil() as u32,
        )
    }

    /// The pixels of `text` anchored at `pos` as plotters' style says (anchor,
    /// rotation, colour), each with its coverage as alpha; the baseline sits
    /// where the SVG backend puts it.
    pub fn rasterize<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
        pos: (i32, i32),
    ) -> Vec<((i32, i32), BackendColor)> {
        let line = self.line(text, style.size(), style.style());
        let em = style.size() as f32 / SIZE_PER_EM;
        let anchor = style.anchor();
        let dx = match anchor.h_pos {
            HPos::Left => 0.0,
            HPos::Center => -line.width / 2.0,
            HPos::Right => -line.width,
        };
        // The SVG backend's dy: 0.76em, 0.5ex and -0.5ex.
        let baseline = match anchor.v_pos {
            VPos::Top => 0.76 * em,
            VPos::Center => line.x_height / 2.0,
            VPos::Bottom => -line.x_height / 2.0,
        };
        let transform: FontTransform = style.transform();
        let colour = style.color();
        let font = self.face(style.style());
        let mut pixels = Vec::new();
        for mut glyph in line.glyphs {
            glyph.position.x += dx;
            glyph.position.y += baseline;
            let Some(outline) = font.outline_glyph(glyph) else {
                continue;
            };
            let bounds = outline.px_bounds();
            outline.draw(|x, y, coverage| {
                if coverage <= 0.0 {
                    return;
                }
                let (tx, ty) = transform.transform(
                    bounds.min.x as i32 + x as i32,
                    bounds.min.y as i32 + y as i32,
                );
                pixels.push((
                    (pos.0 + tx, pos.1 + ty),
                    BackendColor {
                        alpha: colour.alpha * f64::from(coverage.min(1.0)),
                        rgb: colour.rgb,
                    },
                ));
            });
        }
        pixels
    }
}

fn read(path: &Path) -> Result<FontArc, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    FontArc::try_from_vec(bytes)
        .map_err(|_| format!("{} is not a TrueType/OpenType font", path.display()))
}

/// The fonts, loaded once per process; later calls return the first outcome.
pub fn ensure() -> Result<&'static Fonts, String> {
    static FONTS: OnceLock<Result<Fonts, String>> = OnceLock::new();
    FONTS
        .get_or_init(|| Fonts::load(&locate(std::env::var_os(FONT_ENV), CANDIDATES)?))
        .as_ref()
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::style::text_anchor::Pos;
    use plotters::style::{IntoFont, TextStyle};

    #[test]
    fn missing_font_says_what_to_install() {
        let err = locate(None, &["/nonexistent/DejaVuSans.ttf"]).unwrap_err();
        assert!(
            err.contains("/nonexistent/DejaVuSans.ttf") && err.contains("fonts-dejavu-core"),
            "{err}"
        );
        let err = locate(Some("/nonexistent/x.ttf".into()), CANDIDATES).unwrap_err();
        assert!(
            err.contains(FONT_ENV) && err.contains("/nonexistent/x.ttf"),
            "{err}"
        );
    }

    #[test]
    fn environment_variable_comes_first() {
        let dir = tempfile::tempdir().unwrap();
        let mine = dir.path().join("mine.ttf");
        std::fs::write(&mine, b"x").unwrap();
        let other = dir.path().join("other.ttf");
        std::fs::write(&other, b"x").unwrap();
        let other = other.to_str().unwrap();
        assert_eq!(locate(Some(mine.clone().into()), &[other]).unwrap(), mine);
        assert_eq!(locate(None, &[other]).unwrap(), PathBuf::from(other));
        assert_eq!(
            locate(Some("".into()), &[other]).unwrap(),
            PathBuf::from(other)
        );
        let err = Fonts::load(&mine).err().unwrap();
        assert!(err.contains("not a TrueType"), "{err}");
    }

    fn fonts() -> &'static Fonts {
        ensure().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn text_is_measured_with_the_fonts_advances() {
        let (w1, h) = fonts().measure("m", 24.8, FontStyle::Normal);
        let (w4, _) = fonts().measure("mmmm", 24.8, FontStyle::Normal);
        // DejaVu Sans: m advances 0.974 em, lines are 1.164 em; em = 20 px here.
        assert!((19..=20).contains(&w1), "{w1}");
        assert!((77..=79).contains(&w4), "{w4}");
        assert_eq!(h, 24);
        assert!(fonts().measure("mm", 24.8, FontStyle::Bold).0 > w1 * 2);
    }

    #[test]
    fn text_is_drawn_from_its_anchor() {
        let style = |h, v| {
            TextStyle::from((FAMILY, 24.8).into_font())
                .pos(Pos::new(h, v))
                .color(&plotters::style::BLACK)
        };
        let bounds = |pixels: &[((i32, i32), BackendColor)]| {
            let xs = pixels.iter().map(|((x, _), _)| *x);
            let ys = pixels.iter().map(|((_, y), _)| *y);
            (
                xs.clone().min().unwrap(),
                xs.max().unwrap(),
                ys.clone().min().unwrap(),
                ys.max().unwrap(),
            )
        };
        let left_top = fonts().rasterize("Hx", &style(HPos::Left, VPos::Top), (100, 100));
        let (x0, x1, y0, y1) = bounds(&left_top);
        assert!((100..=103).contains(&x0) && x1 < 140, "{x0}..{x1}");
        assert!((100..=103).contains(&y0) && y1 < 120, "{y0}..{y1}");
        let right = fonts().rasterize("Hx", &style(HPos::Right, VPos::Center), (100, 100));
        let (x0, x1, y0, y1) = bounds(&right);
        assert!(x1 <= 100 && x0 > 60, "{x0}..{x1}");
        assert!(y0 < 100 && y1 > 100, "{y0}..{y1}");
        let upright = TextStyle::from((FAMILY, 24.8).into_font())
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Right, VPos::Center));
        // Turned upright and ending at the anchor: the text hangs below it.
        let (x0, x1, y0, y1) = bounds(&fonts().rasterize("Hx", &upright, (100, 100)));
        assert!(y0 >= 99 && y1 > 120, "{y0}..{y1}");
        assert!(x0 < 100 && x1 > 100 && x1 - x0 < 20, "{x0}..{x1}");
    }
}
