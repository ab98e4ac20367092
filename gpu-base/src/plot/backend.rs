//! A drawing backend that measures text with the plots' font, so that the
//! layout of the SVG and the PNG is that of the text drawn, and for the bitmap
//! rasterises the text itself (plotters is built without a font engine).

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

use super::font::Fonts;

pub struct WithFont<B> {
    inner: B,
    fonts: &'static Fonts,
    /// Draw text as pixels (bitmap), or hand it to `inner` (SVG `<text>`).
    rasterize: bool,
}

impl<B> WithFont<B> {
    pub fn vector(inner: B, fonts: &'static Fonts) -> Self {
        Self {
            inner,
            fonts,
            rasterize: false,
        }
    }

    pub fn bitmap(inner: B, fonts: &'static Fonts) -> Self {
        Self {
            inner,
            fonts,
            rasterize: true,
        }
    }
}

type Result<E> = std::result::Result<(), DrawingErrorKind<E>>;

impl<B: DrawingBackend> DrawingBackend for WithFont<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<B::ErrorType> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<B::ErrorType> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<B::ErrorType> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<B::ErrorType> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<B::ErrorType> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<B::ErrorType> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<B::ErrorType> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<B::ErrorType> {
        self.inner.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<B::ErrorType> {
        self.inner.blit_bitmap(pos, size, src)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<B::ErrorType> {
        if !self.rasterize {
            return self.inner.draw_text(text, style, pos);
        }
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        for (point, colour) in self.fonts.rasterize(text, style, pos) {
            self.inner.draw_pixel(point, colour)?;
        }
        Ok(())
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> std::result::Result<(u32, u32), DrawingErrorKind<B::ErrorType>> {
        Ok(self.fonts.measure(text, style.size(), style.style()))
    }
}
