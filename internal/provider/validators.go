package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// checkHost applies the client's host rules (client.CheckHost), so what
// passes validation is what the client accepts. Plain http is accepted for
// loopback hosts (the local API) and otherwise only when insecure is set.
func checkHost(raw string, insecure bool) error {
	return client.CheckHost(raw, insecure)
}

// httpURLValidator refuses a host that is not an http(s) URL. Whether plain
// http is allowed depends on allow_insecure_http and is checked in
// ValidateConfig.
type httpURLValidator struct{}

func (httpURLValidator) Description(context.Context) string {
	return "must be an http(s) URL"
}

func (v httpURLValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (httpURLValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := checkHost(req.ConfigValue.ValueString(), true); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid host", err.Error())
	}
}

// notBlankValidator refuses an empty or whitespace-only string.
type notBlankValidator struct{}

func (notBlankValidator) Description(context.Context) string { return "must not be empty or blank" }

func (v notBlankValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (notBlankValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if strings.TrimSpace(req.ConfigValue.ValueString()) == "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			req.Path.String()+" must not be empty or blank.")
	}
}

// durationValidator refuses a string that is not a positive Go duration.
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return `must be a positive duration such as "30s" or "2m"`
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err != nil || d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
	}
}
