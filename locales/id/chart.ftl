## Report chart: the 📈 button of /laporan, daily turnover and margin as a picture

chart-button = 📈 Grafik
chart-title = Omzet & margin harian, { $from } s.d. { $to } (WIB)
chart-turnover = Omzet
chart-margin = Margin
chart-caption = 📈 { $from } s.d. { $to } (WIB) · Omzet { $turnover } · Margin { $margin }
