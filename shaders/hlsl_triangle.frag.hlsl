// The interpolated COLOR0, scaled: semantic strings on the input and SV_Target0.
float4 main(float4 color : COLOR0) : SV_Target0 { return color * 0.75 + 0.125; }
