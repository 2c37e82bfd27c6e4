package scenario

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// HCL renders the configuration as a resource block named name, JSON
// arguments through jsonencode as a user writes them.
func (c *Config) HCL(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource %q %q {\n", TypeName(c.Kind), name)
	line := func(attr, expr string) { fmt.Fprintf(&b, "  %s = %s\n", attr, expr) }
	if c.ProjectID != nil {
		line("project_id", hclString(*c.ProjectID))
	}
	line("plugin", strconv.FormatInt(c.Plugin, 10))
	if c.Enabled != nil {
		line("enabled", strconv.FormatBool(*c.Enabled))
	}
	if c.Order != nil {
		line("order", strconv.FormatInt(*c.Order, 10))
	}
	if c.Name != nil {
		line("name", hclText(*c.Name))
	}
	if c.Description != nil {
		line("description", hclText(*c.Description))
	}
	for _, a := range []struct {
		attr string
		text *string
	}{{"filters", c.Filters}, {"config", c.Settings}, {"secret_config_wo", c.Secret}} {
		if a.text != nil {
			line(a.attr, hclJSON(*a.text))
		}
	}
	if c.SecretVersion != nil {
		line("secret_config_wo_version", strconv.FormatInt(*c.SecretVersion, 10))
	}
	b.WriteString("}\n")
	return b.String()
}

// hclText renders text: a heredoc for one line ending in a newline (how
// users write descriptions), else a quoted string.
func hclText(s string) string {
	body, ok := strings.CutSuffix(s, "\n")
	if ok && body != "" && !strings.ContainsAny(body, "\n\r\x00") && !strings.Contains(body, "EOT") &&
		strings.TrimLeft(body, " \t") == body && !strings.Contains(body, "${") && !strings.Contains(body, "%{") {
		return "<<EOT\n" + body + "\nEOT"
	}
	return hclString(s)
}

// hclString renders s as an HCL quoted string: escapes for quotes,
// backslashes and characters that are not printable, and template
// sequences doubled so that they stay literal.
func hclString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case (r == '$' || r == '%') && strings.HasPrefix(s[i+1:], "{"):
			b.WriteRune(r)
			b.WriteRune(r)
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08X`, r)
		default:
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// hclJSON renders JSON text as jsonencode of the same value written in
// HCL (numbers as literals, keys quoted), or as a quoted string when the
// text is not JSON.
func hclJSON(text string) string {
	v, err := python.Decode(text)
	if err != nil {
		return hclString(text)
	}
	return "jsonencode(" + hclValue(v, "  ") + ")"
}

func hclValue(v any, indent string) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return x.String()
	case string:
		return hclString(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = hclValue(e, indent)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		if len(x) == 0 {
			return "{}"
		}
		inner := indent + "  "
		var b strings.Builder
		b.WriteString("{\n")
		for _, k := range slices.Sorted(maps.Keys(x)) {
			fmt.Fprintf(&b, "%s%s = %s\n", inner, hclString(k), hclValue(x[k], inner))
		}
		b.WriteString(indent + "}")
		return b.String()
	}
	return fmt.Sprint(v)
}
