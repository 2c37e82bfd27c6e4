package framework

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Default time limits of whole operations, retries and rate-limit waits
// included; a resource's timeouts block overrides them. The list data
// source and list resource, which have no such block, read within
// DefaultReadTimeout.
const (
	DefaultWriteTimeout = 10 * time.Minute
	DefaultReadTimeout  = 5 * time.Minute
)

// TimeoutFunc reads one operation's time limit from a resource's timeouts
// block, returning the default when the block leaves it out: a method value
// such as plan.Timeouts.Create.
type TimeoutFunc func(ctx context.Context, defaultTimeout time.Duration) (time.Duration, diag.Diagnostics)

// OperationContext bounds ctx by an operation's time limit, so that retries
// and rate-limit waits stop with it. A limit that cannot be read adds its
// error to diags (the default limit applies then); the caller returns on
// errors after deferring cancel.
func OperationContext(ctx context.Context, timeout TimeoutFunc, defaultTimeout time.Duration, diags *diag.Diagnostics) (context.Context, context.CancelFunc) {
	limit, d := timeout(ctx, defaultTimeout)
	diags.Append(d...)
	return context.WithTimeout(ctx, limit)
}
