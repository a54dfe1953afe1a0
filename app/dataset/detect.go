package dataset

import (
	"bytes"
	"io"
	"path"
	"strings"

	"eval752/app/formats"
	"eval752/app/model"
)

// InputFormat is the format Load reads in as: a bundle for zip content (or a
// forced bundle), else the forced format (Unknown for a format Load does
// not know), else what
// formats.Detect says of the file's head — read as Load reads it (readHead
// with lim's line limit) — with Load's exceptions (a file named .zip that is
// not a zip, seed 003's pipeline files that are only noted: Unknown). It
// reads the head of in only. engine uses it to route plain TREC inputs to the
// streaming path, which must agree with Load on every file.
func InputFormat(in Input, lim Limits) model.Format {
	if in.R == nil {
		return model.FormatUnknown
	}
	var magic [4]byte
	n, _ := in.R.ReadAt(magic[:], 0)
	if n == 4 && (bytes.Equal(magic[:], formats.ZipMagic) || bytes.Equal(magic[:], formats.ZipEmptyMagic)) {
		return model.FormatBundle
	}
	if in.Format != "" {
		if !formats.Known(in.Format) {
			return model.FormatUnknown // Load says so, then detects
		}
		return in.Format
	}
	if strings.HasSuffix(strings.ToLower(in.Name), ".zip") {
		return model.FormatUnknown
	}
	if seed003Unread[strings.ToLower(path.Base(strings.ReplaceAll(in.Name, "\\", "/")))] {
		return model.FormatUnknown
	}
	head, complete, err := readHead(io.NewSectionReader(in.R, 0, in.Size), lim.MaxLineBytes)
	if err != nil {
		return model.FormatUnknown
	}
	f := formats.Detect(in.Name, head, complete).Format
	if f == model.FormatBundle {
		return model.FormatUnknown
	}
	return f
}
