package demo

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strconv"
)

// The demo's image assets are drawn here, pixel by pixel, so the bundle holds
// real PNG files without a font or an image committed to the repository, and
// so the same bytes come out on every machine (image/png's encoder is
// deterministic for a given image and compression level).

// glyphs is a 5×7 bitmap font: each glyph is seven rows of five bits, "#" set.
var glyphs = map[rune][7]string{
	'A': {".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
	'B': {"####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."},
	'C': {".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."},
	'D': {"####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."},
	'E': {"#####", "#....", "#....", "####.", "#....", "#....", "#####"},
	'F': {"#####", "#....", "#....", "####.", "#....", "#....", "#...."},
	'G': {".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"},
	'H': {"#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
	'I': {".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."},
	'K': {"#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"},
	'L': {"#....", "#....", "#....", "#....", "#....", "#....", "#####"},
	'M': {"#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"},
	'N': {"#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#", "#...#"},
	'O': {".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
	'P': {"####.", "#...#", "#...#", "####.", "#....", "#....", "#...."},
	'R': {"####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"},
	'S': {".####", "#....", "#....", ".###.", "....#", "....#", "####."},
	'T': {"#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."},
	'U': {"#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
	'V': {"#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."},
	'Y': {"#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."},
	'0': {".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."},
	'1': {"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."},
	'2': {".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"},
	'3': {"####.", "....#", "....#", ".###.", "....#", "....#", "####."},
	'4': {"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."},
	'5': {"#####", "#....", "####.", "....#", "....#", "#...#", ".###."},
	'6': {".###.", "#....", "#....", "####.", "#...#", "#...#", ".###."},
	'7': {"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."},
	'8': {".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."},
	'9': {".###.", "#...#", "#...#", ".####", "....#", "....#", ".###."},
	'(': {"...#.", "..#..", ".#...", ".#...", ".#...", "..#..", "...#."},
	')': {".#...", "..#..", "...#.", "...#.", "...#.", "..#..", ".#..."},
	'~': {".....", ".....", ".#...", "#.#.#", "...#.", ".....", "....."},
	'-': {".....", ".....", ".....", "#####", ".....", ".....", "....."},
	' ': {".....", ".....", ".....", ".....", ".....", ".....", "....."},
}

// canvas is an RGBA image with a few drawing helpers.
type canvas struct{ *image.RGBA }

func newCanvas(w, h int, bg color.RGBA) canvas {
	c := canvas{image.NewRGBA(image.Rect(0, 0, w, h))}
	c.fill(0, 0, w, h, bg)
	return c
}

// fill paints the rectangle [x0,x1)×[y0,y1).
func (c canvas) fill(x0, y0, x1, y1 int, col color.RGBA) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			c.SetRGBA(x, y, col)
		}
	}
}

// text draws s with its top-left corner at (x, y), each font pixel a
// scale×scale square; glyphs are 6 font pixels apart.
func (c canvas) text(x, y, scale int, s string, col color.RGBA) {
	for _, r := range s {
		g := glyphs[r]
		for row, bits := range g {
			for i, b := range bits {
				if b == '#' {
					c.fill(x+i*scale, y+row*scale, x+(i+1)*scale, y+(row+1)*scale, col)
				}
			}
		}
		x += 6 * scale
	}
}

// textWidth is the drawn width of s at scale (without the last gap).
func textWidth(s string, scale int) int {
	n := len([]rune(s))
	if n == 0 {
		return 0
	}
	return (6*n - 1) * scale
}

func encodePNG(img image.Image) []byte {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, img); err != nil {
		panic("demo: png encode: " + err.Error()) // cannot fail writing to memory
	}
	return b.Bytes()
}

// RecallCounts are the bars of assets/recalls-by-category.png (made-up 2025
// recall notices per category). Items ps-002, ps-015 and ps-030 ask about them.
var RecallCounts = []struct {
	Label string
	Count int
}{{"TOYS", 34}, {"ELEC", 27}, {"FURN", 12}, {"COSM", 8}}

// recallChartPNG draws a labelled bar chart of RecallCounts.
func recallChartPNG() []byte {
	const w, h = 360, 240
	white := color.RGBA{255, 255, 255, 255}
	ink := color.RGBA{33, 37, 41, 255}
	grid := color.RGBA{222, 226, 230, 255}
	bars := []color.RGBA{{220, 53, 69, 255}, {253, 126, 20, 255}, {25, 135, 84, 255}, {13, 110, 253, 255}}
	c := newCanvas(w, h, white)
	title := "RECALLS 2025 (DEMO)"
	c.text((w-textWidth(title, 2))/2, 10, 2, title, ink)
	const base, top, left, right = 200, 40, 30, 340
	for v := 0; v <= 40; v += 10 { // grid lines every 10 notices
		y := base - v*(base-top)/40
		c.fill(left, y, right, y+1, grid)
		c.text(4, y-3, 1, strconv.Itoa(v), ink)
	}
	c.fill(left, base, right, base+2, ink)
	c.fill(left, top, left+2, base, ink)
	slot := (right - left) / len(RecallCounts)
	for i, b := range RecallCounts {
		x0 := left + i*slot + 18
		x1 := x0 + slot - 36
		y := base - b.Count*(base-top)/40
		c.fill(x0, y, x1, base, bars[i])
		n := strconv.Itoa(b.Count)
		c.text((x0+x1-textWidth(n, 2))/2, y-18, 2, n, ink)
		c.text((x0+x1-textWidth(b.Label, 2))/2, base+10, 2, b.Label, ink)
	}
	return encodePNG(c)
}

// plugLabelPNG draws a made-up plug rating label: "250V~ 10A" (item ps-023).
func plugLabelPNG() []byte {
	const w, h = 240, 132
	plate := color.RGBA{248, 249, 250, 255}
	ink := color.RGBA{33, 37, 41, 255}
	c := newCanvas(w, h, plate)
	c.fill(6, 6, w-6, 9, ink)
	c.fill(6, h-9, w-6, h-6, ink)
	c.fill(6, 6, 9, h-6, ink)
	c.fill(w-9, 6, w-6, h-6, ink)
	c.text((w-textWidth("DEMO PLUG", 2))/2, 20, 2, "DEMO PLUG", ink)
	c.text((w-textWidth("250V~ 10A", 3))/2, 52, 3, "250V~ 10A", ink)
	// the Class II symbol: a square inside a square
	c.fill(104, 88, 136, 90, ink)
	c.fill(104, 110, 136, 112, ink)
	c.fill(104, 88, 106, 112, ink)
	c.fill(134, 88, 136, 112, ink)
	c.fill(112, 95, 128, 96, ink)
	c.fill(112, 104, 128, 105, ink)
	c.fill(112, 95, 113, 105, ink)
	c.fill(127, 95, 128, 105, ink)
	return encodePNG(c)
}
