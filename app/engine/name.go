package engine

import (
	"path"
	"strings"
	"unicode"

	"eval752/app/dataset"
)

// DatasetName names a loaded dataset for export file names
// ("geo-score.json"): the first bundle's meta.json name, else the first
// input's base name without its extensions ("demo.eval752.zip" → "demo"),
// else "eval752". It keeps letters, digits, '.', '_' and '-' (anything else
// becomes '-'), at most 60 bytes.
func DatasetName(ds *dataset.Dataset) string {
	name := ""
	for _, b := range ds.Bundles {
		if b.Meta != nil && strings.TrimSpace(b.Meta.V.Name) != "" {
			name = b.Meta.V.Name
			break
		}
	}
	if name == "" && len(ds.Inputs) > 0 {
		p := strings.ReplaceAll(ds.Inputs[0].Path, "\\", "/")
		if i := strings.IndexByte(p, '!'); i >= 0 {
			p = p[:i]
		}
		name = path.Base(p)
		if i := strings.IndexByte(name, '.'); i > 0 {
			name = name[:i]
		}
	}
	return SafeName(name)
}

// SafeName makes s usable in a file name (see DatasetName); "" becomes
// "eval752".
func SafeName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.TrimSpace(s) {
		ok := r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 && (unicode.IsLetter(r) || unicode.IsDigit(r))
		if !ok {
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		dash = false
		if b.Len()+len(string(r)) > 60 {
			break
		}
		b.WriteRune(r)
	}
	out := strings.Trim(b.String(), "-.")
	if out == "" {
		return "eval752"
	}
	return out
}
