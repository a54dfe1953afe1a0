package model

import (
	"strings"
	"time"
)

// ParseInstant reads a timestamp as seed 000 writes as_of and observed_at
// (RFC 3339: a date, a time and a UTC offset). It also takes what RFC 3339
// §5.6 allows and people write: a lower-case "t" / "z", fractional seconds,
// and an offset without its colon (+0800). ok is false for anything else
// (a date alone, a time without an offset); validation says which.
func ParseInstant(s string) (t time.Time, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) > 10 && (s[10] == 't') {
		s = s[:10] + "T" + s[11:]
	}
	if strings.HasSuffix(s, "z") {
		s = s[:len(s)-1] + "Z"
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
