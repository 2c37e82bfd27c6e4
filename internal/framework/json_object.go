package framework

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// ErrNotJSONObject is the error of a string that must hold a JSON object.
var ErrNotJSONObject = errors.New("must be a JSON object string (write it with jsonencode)")

// JSONObjectValidator refuses a string that is not a JSON object (no stock
// validator does); example shows a valid value.
func JSONObjectValidator(summary, example string) validator.String {
	return jsonObjectValidator{summary: summary, example: example}
}

type jsonObjectValidator struct {
	summary, example string
}

func (jsonObjectValidator) Description(context.Context) string {
	return "must be a JSON object string"
}

func (v jsonObjectValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v jsonObjectValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !IsSet(req.ConfigValue) {
		return
	}
	if _, ok := python.Object(req.ConfigValue.ValueString()); !ok {
		resp.Diagnostics.AddAttributeError(req.Path, v.summary,
			fmt.Sprintf("%s %s, e.g. %s.", req.Path, ErrNotJSONObject, v.example))
	}
}
