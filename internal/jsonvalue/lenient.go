package jsonvalue

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FlexInt decodes an integer sent as a number, a numeric string, an integral
// float (5.0) or null (0): the published schema is wrong about some types,
// and one odd field must not make a whole record unreadable.
type FlexInt int64

// UnmarshalJSON decodes leniently; see FlexInt.
func (n *FlexInt) UnmarshalJSON(data []byte) error {
	if IsNull(data) {
		*n = 0
		return nil
	}
	data = bytes.TrimSpace(data)
	s := string(data)
	if data[0] == '"' {
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			*n = 0
			return nil
		}
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		*n = FlexInt(v)
		return nil
	}
	f, err := strconv.ParseFloat(s, 64) // 5.0 or 5e0: only integral and in range
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return fmt.Errorf("not an integer: %.40q", s)
	}
	*n = FlexInt(int64(f))
	return nil
}

// FlexBool decodes a boolean sent as true/false, "true"/"false", 1/0,
// "1"/"0" or null (false), for the same reason as FlexInt.
type FlexBool bool

// UnmarshalJSON decodes leniently; see FlexBool.
func (b *FlexBool) UnmarshalJSON(data []byte) error {
	s := strings.Trim(strings.TrimSpace(string(data)), `"`)
	switch strings.ToLower(s) {
	case "true", "1", "t", "yes":
		*b = true
	case "false", "0", "f", "no", "", "null":
		*b = false
	default:
		return fmt.Errorf("not a boolean: %.40q", s)
	}
	return nil
}
