//go:build !js

package e2e

import (
	"bytes"
	"flag"
	"image"
	"image/color/palette"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var shots = flag.String("shots", "", "write screenshots of the views (1440×900 and 390×844) into this folder (TestViewScreenshots)")

// TestViewScreenshots draws the views at 1440×900 and 390×844 and checks
// each is a PNG; with -shots DIR it writes them there (docs/ holds them):
//
//	go test ./app/ui/e2e -run TestViewScreenshots -shots=$PWD/docs
func TestViewScreenshots(t *testing.T) {
	out := *shots
	if out == "" {
		out = t.TempDir()
	}
	bad := filepath.Join(t.TempDir(), "bad.eval752.zip")
	if o, err := exec.Command(env.bin, "demo", "--bad", bad).CombinedOutput(); err != nil {
		t.Fatalf("demo --bad: %v\n%s", err, o)
	}
	for _, size := range []struct {
		name string
		w, h int64
	}{{"1440", 1440, 900}, {"390", 390, 844}} {
		b := newBrowser(t)
		opts := []chromedp.EmulateViewportOption{}
		if size.w < 600 {
			opts = append(opts, chromedp.EmulateMobile)
		}
		b.do(chromedp.EmulateViewport(size.w, size.h, opts...))
		b.open()
		b.upload(env.demo)
		b.waitReady(60 * time.Second)
		shot := func(name string) {
			t.Helper()
			time.Sleep(400 * time.Millisecond)
			eval[bool](b, `(document.querySelector('.tabs').scrollIntoView(), true)`)
			shotPNG, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(shotPNG, []byte("\x89PNG")) {
				t.Fatalf("%s: not a PNG", name)
			}
			shotPNG = smallPNG(t, shotPNG)
			p := filepath.Join(out, "ui-"+name+"-"+size.name+".png")
			if err := os.WriteFile(p, shotPNG, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s (%d KiB)", p, len(shotPNG)>>10)
		}
		b.tab("scores")
		shot("scores")
		b.tab("compare")
		b.waitJS(`!!document.querySelector('[data-report=compare]')`, 30*time.Second)
		shot("compare")
		b.tab("items")
		b.waitJS(`!!document.querySelector('[data-test=item]')`, 10*time.Second)
		shot("items")
		b.upload(bad)
		b.waitReady(60 * time.Second)
		b.tab("findings")
		b.click(`[data-test=finding]:not([data-line="0"]) [data-test=finding-open]`)
		b.waitJS(`!!document.querySelector('[data-test=line-window]')`, 10*time.Second)
		shot("findings")
	}
}

// smallPNG re-encodes a screenshot with a 256-colour palette (Plan 9's,
// no dithering) at best compression: a third of the size, text still sharp.
func smallPNG(t *testing.T, b []byte) []byte {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	pal := image.NewPaletted(img.Bounds(), palette.Plan9)
	draw.Draw(pal, img.Bounds(), img, img.Bounds().Min, draw.Src)
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&out, pal); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
