package configresource

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// textValidator checks a name or description as the service does: its
// length in characters once stripped (the stock validators count bytes,
// whitespace included), and no null character.
type textValidator struct{ max int }

var _ validator.String = textValidator{}

func (v textValidator) Description(context.Context) string {
	return fmt.Sprintf("at most %d characters once leading and trailing whitespace is stripped, and no null character", v.max)
}

func (v textValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v textValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	if n := python.Len(record.Stored(s)); n > v.max {
		resp.Diagnostics.AddAttributeError(req.Path, "Text too long", fmt.Sprintf(
			"%s must be at most %d characters, got %d: the service counts characters (not bytes) once it has "+
				"stripped leading and trailing whitespace.", req.Path, v.max, n))
	}
	if strings.ContainsRune(s, 0) {
		resp.Diagnostics.AddAttributeError(req.Path, "Null character in text", fmt.Sprintf(
			"%s contains a null character (U+0000), which the service refuses.", req.Path))
	}
}
