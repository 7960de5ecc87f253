## Report chart: the 📈 button of /report, daily turnover and margin as a picture

chart-button = 📈 Chart
chart-title = Daily turnover & margin, { $from } to { $to } (WIB)
chart-turnover = Turnover
chart-margin = Margin
chart-caption = 📈 { $from } to { $to } (WIB) · Turnover { $turnover } · Margin { $margin }
