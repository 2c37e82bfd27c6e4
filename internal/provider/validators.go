package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// stringCheck validates a known string: check returns what is wrong, or "".
type stringCheck struct {
	description string
	check       func(attr, value string) string
}

func (v stringCheck) Description(context.Context) string { return v.description }

func (v stringCheck) MarkdownDescription(context.Context) string { return v.description }

func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if problem := v.check(req.Path.String(), req.ConfigValue.ValueString()); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), problem)
	}
}

// notBlankValidator refuses an empty or whitespace-only string; the stock
// ones would change the error, and a regex one would echo the api_key.
var notBlankValidator = stringCheck{"must not be empty or blank", func(attr, value string) string {
	if strings.TrimSpace(value) == "" {
		return attr + " must not be empty or blank."
	}
	return ""
}}

// durationValidator refuses a string that is not a positive Go duration.
var durationValidator = stringCheck{`must be a positive duration such as "30s" or "2m"`, func(attr, value string) string {
	if d, err := time.ParseDuration(value); err != nil || d <= 0 {
		return fmt.Sprintf(`%s must be a positive duration such as "30s" or "2m", got %q.`, attr, value)
	}
	return ""
}}
