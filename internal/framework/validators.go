package framework

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// StringCheck is a validator of known strings described by description:
// check returns the summary and detail of what is wrong with s, or "", "".
func StringCheck(description string, check func(p path.Path, s string) (summary, detail string)) validator.String {
	return stringCheck{description: description, check: check}
}

type stringCheck struct {
	description string
	check       func(p path.Path, s string) (summary, detail string)
}

func (v stringCheck) Description(context.Context) string { return v.description }

func (v stringCheck) MarkdownDescription(context.Context) string { return v.description }

func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !IsSet(req.ConfigValue) {
		return
	}
	if summary, detail := v.check(req.Path, req.ConfigValue.ValueString()); detail != "" {
		resp.Diagnostics.AddAttributeError(req.Path, summary, detail)
	}
}

// ErrNotJSONObject is the error of a string that must hold a JSON object.
var ErrNotJSONObject = errors.New("must be a JSON object string (write it with jsonencode)")

// JSONObjectValidator refuses a string that is not a JSON object (no stock
// validator does); example shows a valid value.
func JSONObjectValidator(summary, example string) validator.String {
	return StringCheck("must be a JSON object string", func(p path.Path, s string) (string, string) {
		if _, ok := python.Object(s); ok {
			return "", ""
		}
		return summary, fmt.Sprintf("%s %s, e.g. %s.", p, ErrNotJSONObject, example)
	})
}
