package dataset

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"eval752/app/finding"
	"eval752/app/jsonl"
)

// ParseYAML reads the YAML subset that seed 003 §10 writes for config.yaml:
// a mapping of `key: value` lines, `#` comments, plain, 'single' and
// "double" quoted scalars, and empty values (null). Nested mappings by
// indentation and block lists (`- item`) are accepted too. Scalars follow
// the YAML 1.2 core schema: null/~/empty → nil, true/false → bool, numbers →
// json.Number (so the schema check sees numbers), everything else a string.
//
// Anchors, aliases, flow collections, multi-line scalars and multiple
// documents are not supported; such a line is one yaml.syntax finding and
// reading goes on.
//
// at maps the JSON pointer of every key and list item to its line.
func ParseYAML(r io.Reader, path string, maxLine int64) (m map[string]any, at map[string]int, lines int, fs finding.List, err error) {
	// A frame is one mapping being filled; indent is the indentation of its
	// keys (-1 until its first key), key the last key written into it, ptr
	// the mapping's own pointer.
	type frame struct {
		indent int
		m      map[string]any
		key    string
		ptr    string
	}
	root := map[string]any{}
	at = map[string]int{}
	stack := []*frame{{indent: -1, m: root}}
	docs := 0
	skipBelow := -1 // ≥ 0: lines indented more than this are under a cut (too deep)
	lines, lfs, err := jsonl.Lines(r, path, maxLine, func(n int, raw []byte) {
		line := string(raw)
		lead := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		if strings.Contains(lead, "\t") {
			fs = append(fs, RuleYAMLSyntax.At(path, n, "", "line %d is indented with a tab (YAML allows spaces only)", n))
			return
		}
		body := stripComment(line)
		text := strings.TrimSpace(body)
		if text == "" {
			return
		}
		indent := len(body) - len(strings.TrimLeft(body, " "))
		if skipBelow >= 0 {
			if indent > skipBelow {
				return
			}
			skipBelow = -1
		}
		if text == "---" || text == "..." {
			if text == "---" {
				docs++
				if docs > 1 || len(root) > 0 {
					fs = append(fs, RuleYAMLSyntax.At(path, n, "", "a second YAML document is not supported; its keys are merged into the first"))
				}
			}
			return
		}
		for len(stack) > 1 && indent < stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		top := stack[len(stack)-1]
		if strings.HasPrefix(text, "- ") || text == "-" {
			// a block list item of the last key of the enclosing mapping
			if top.key == "" || indent < top.indent {
				fs = append(fs, RuleYAMLSyntax.At(path, n, "", "list item without a key above it"))
				return
			}
			ptr := top.ptr + "/" + jsonl.EscapePointer(top.key)
			cur := top.m[top.key]
			lst, ok := cur.([]any)
			if cur != nil && !ok {
				fs = append(fs, RuleYAMLSyntax.At(path, n, ptr, "list item under key %q, which already has a value", top.key))
				return
			}
			v, perr := scalar(strings.TrimSpace(strings.TrimPrefix(text, "-")))
			if perr != "" {
				fs = append(fs, RuleYAMLSyntax.At(path, n, ptr, "%s", perr))
				return
			}
			at[ptr+"/"+strconv.Itoa(len(lst))] = n
			top.m[top.key] = append(lst, v)
			return
		}
		key, val, ok := splitKey(text)
		if !ok {
			fs = append(fs, RuleYAMLSyntax.At(path, n, "", "line %d is not a `key: value` line: %s", n, clip(text)))
			return
		}
		switch {
		case top.indent < 0:
			top.indent = indent
		case indent > top.indent:
			// deeper than its mapping's keys: a nested mapping of the last key
			if top.key == "" || top.m[top.key] != nil {
				fs = append(fs, RuleYAMLSyntax.At(path, n, "", "line %d is indented more than the key above it, which already has a value", n))
				return
			}
			childPtr := top.ptr + "/" + jsonl.EscapePointer(top.key)
			if len(stack) > jsonl.MaxDepth || len(childPtr) > maxYAMLPointer {
				// a cap like JSON's: one finding, the lines below the
				// cut skipped in constant memory each
				what := fmt.Sprintf("nests mappings deeper than %d levels", jsonl.MaxDepth)
				if len(childPtr) > maxYAMLPointer {
					what = fmt.Sprintf("nests keys whose path is longer than %d KiB", maxYAMLPointer>>10)
				}
				fs = append(fs, RuleYAMLTooDeep.At(path, n, childPtr, "line %d %s; it and the lines indented below it are skipped", n, what))
				skipBelow = top.indent
				return
			}
			child := map[string]any{}
			top.m[top.key] = child
			top = &frame{indent: indent, m: child, ptr: childPtr}
			stack = append(stack, top)
		}
		kp := top.ptr + "/" + jsonl.EscapePointer(key)
		if _, dup := top.m[key]; dup {
			fs = append(fs, RuleYAMLDuplicate.At(path, n, kp, "key %q appears twice; the last value is kept", key))
		}
		at[kp] = n
		v, perr := scalar(val)
		if perr != "" {
			fs = append(fs, RuleYAMLSyntax.At(path, n, kp, "%s", perr))
			top.key = ""
			return
		}
		top.m[key] = v
		top.key = key
	})
	fs = append(lfs, fs...)
	return root, at, lines, fs, err
}

// maxYAMLPointer bounds the JSON pointer of a YAML key: every key line keeps
// its pointer (to locate findings), so long keys nested deep would cost
// their length times the depth.
const maxYAMLPointer = 64 << 10

var yamlNumber = regexp.MustCompile(`^[-+]?(0|[1-9][0-9]*)(\.[0-9]*)?([eE][-+]?[0-9]+)?$|^[-+]?\.[0-9]+([eE][-+]?[0-9]+)?$`)

// scalar interprets one YAML scalar (YAML 1.2 core schema).
func scalar(s string) (any, string) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil, ""
	case "true", "True", "TRUE":
		return true, ""
	case "false", "False", "FALSE":
		return false, ""
	}
	switch s[0] {
	case '"':
		if len(s) < 2 || s[len(s)-1] != '"' {
			return nil, "unterminated double-quoted string"
		}
		u, err := strconv.Unquote(s)
		if err != nil {
			// YAML escapes are a superset of JSON's; fall back to JSON's rules
			var js string
			if json.Unmarshal([]byte(s), &js) != nil {
				return nil, "invalid escape in double-quoted string " + clip(s)
			}
			return js, ""
		}
		return u, ""
	case '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return nil, "unterminated single-quoted string"
		}
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'"), ""
	case '[', '{':
		v, problems := jsonl.Decode([]byte(s))
		if v == nil || len(problems) > 0 {
			why := "" // the JSON reader's reason: a syntax error, a duplicate key, the depth cap
			if len(problems) > 0 {
				why = " (" + problems[len(problems)-1].Msg + ")"
			}
			return nil, "flow collections are supported only when written as JSON" + why + ": " + clip(s)
		}
		return v, ""
	case '&', '*', '!', '|', '>', '%', '@', '`':
		return nil, "YAML feature not supported (anchor, alias, tag, block scalar or reserved indicator): " + clip(s)
	}
	if yamlNumber.MatchString(s) {
		t := strings.TrimPrefix(s, "+")
		// JSON needs a digit before and after the point
		if strings.HasPrefix(t, ".") {
			t = "0" + t
		} else if strings.HasPrefix(t, "-.") {
			t = "-0" + t[1:]
		}
		if strings.HasSuffix(t, ".") {
			t += "0"
		}
		t = strings.Replace(t, ".e", ".0e", 1)
		t = strings.Replace(t, ".E", ".0E", 1)
		return json.Number(t), ""
	}
	return s, ""
}

// splitKey splits "key: value" (or "key:" with an empty value). Keys may be quoted.
func splitKey(s string) (key, val string, ok bool) {
	if s[0] == '"' || s[0] == '\'' {
		q := s[0]
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return "", "", false
		}
		key = s[1 : end+1]
		rest := strings.TrimLeft(s[end+2:], " ")
		if !strings.HasPrefix(rest, ":") {
			return "", "", false
		}
		return key, strings.TrimSpace(rest[1:]), true
	}
	i := strings.Index(s, ": ")
	if i < 0 {
		if strings.HasSuffix(s, ":") {
			return strings.TrimSpace(s[:len(s)-1]), "", s != ":"
		}
		return "", "", false
	}
	key = strings.TrimSpace(s[:i])
	return key, strings.TrimSpace(s[i+2:]), key != ""
}

// stripComment removes a " #" comment outside quotes.
func stripComment(s string) string {
	inS, inD := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'' && !inD:
			inS = !inS
		case c == '"' && !inS:
			if i == 0 || s[i-1] != '\\' {
				inD = !inD
			}
		case c == '#' && !inS && !inD && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return s[:i]
		}
	}
	return s
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "…"
	}
	return s
}
