## Daily summary: /ringkasan, yesterday's report every day at a chosen hour (WIB)

command-summary = Ringkasan harian terjadwal (laporan kemarin)
summary-menu =
    🗓 <b>Ringkasan harian</b>
    Setiap hari pada jam yang Anda pilih (WIB), bot mengirim laporan hari kemarin: transaksi, omzet, pergerakan saldo, dan tombol 📈 Grafik.
summary-status-on = Sekarang: aktif, setiap hari pukul { $hour } WIB.
summary-status-off = Sekarang: tidak aktif. Pilih jam untuk menyalakannya.
summary-set = Ringkasan harian aktif: pukul { $hour } WIB
summary-off = Ringkasan harian dimatikan
summary-button-off = Matikan
summary-open-button = 🗓 Ringkasan harian
summary-headline = 🗓 <b>Ringkasan harian</b> · laporan kemarin
