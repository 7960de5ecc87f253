## Report: /laporan, the figures of a period (turnover at the sell prices stored at confirmation)

command-report = Laporan transaksi per periode
report-menu =
    📊 <b>Laporan transaksi</b>
    Pilih periode (hari dalam WIB, minggu mulai Senin). Laporan berisi transaksi Anda sendiri.

    Rentang lain: <code>/laporan 2026-11-01 2026-11-15</code>
report-title = 📊 <b>Laporan { $from } s.d. { $to } (WIB)</b>
report-total = Transaksi: { $count }
report-success = ✅ Sukses: { $count }
report-failed = ❌ Gagal: { $count }
report-pending = ⏳ Diproses: { $count }
report-unresolved = ❔ Tidak terselesaikan: { $count }
report-rejected = ⛔ Ditolak: { $count }
report-sell-turnover = 💰 Omzet (harga jual): { $amount }
report-turnover = 🏷 Omzet (harga modal): { $amount }
report-margin = 💵 Margin: { $amount }
report-line-margin = {" "}· margin { $margin }
report-rate = 📈 Tingkat sukses: { $rate }%
report-rate-none = 📈 Tingkat sukses: - (belum ada yang Sukses atau Gagal)
report-top-title = <b>{ $count } produk teratas</b> (Sukses)
report-top-line = { $n }. <code>{ $code }</code> { $name } · { $count }× · { $sum }
report-brands-title = <b>Per brand</b> (Sukses)
report-brand-line = { $brand }: { $count }× · { $sum }
report-cost-note = <i>Omzet memakai harga jual yang tersimpan saat transaksi dikonfirmasi (transaksi tanpa harga jual dihitung sama dengan modal); per produk dan per brand: harga modal. Atur harga jual dengan /jual.</i>
report-empty = Tidak ada transaksi pada { $from } s.d. { $to } (WIB), jadi belum ada yang dilaporkan.
report-bad-date =
    Tanggal tidak dikenali. Tulis rentang tanggal seperti ini:
    <code>/laporan 2026-11-01 2026-11-15</code>
    <code>/laporan 01/11/2026 15/11/2026</code>
report-bad-order = Tanggal awal harus sebelum (atau sama dengan) tanggal akhir, misalnya <code>/laporan 2026-11-01 2026-11-15</code>.

## Report: an upline's margin from downlines, and /laporan dl (the upline's report of their downlines' purchases)

report-downline-margin = 👥 Margin dari downline: { $amount }
report-dl-menu-all =
    📊 <b>Laporan downline</b>
    Pilih periode (hari dalam WIB, minggu mulai Senin). Laporan berisi pembelian semua downline Anda: penjualan dengan harga downline, modal Anda dan margin Anda.

    Satu downline: <code>/laporan dl @user</code> · rentang lain: <code>/laporan dl 2026-11-01 2026-11-15</code>
report-dl-menu-one =
    📊 <b>Laporan downline { $name }</b>
    Pilih periode (hari dalam WIB, minggu mulai Senin).
report-dl-title-all = 📊 <b>Laporan downline ({ $count }) { $from } s.d. { $to } (WIB)</b>
report-dl-title-one = 📊 <b>Laporan downline { $name }, { $from } s.d. { $to } (WIB)</b>
report-dl-other = ⏳ Diproses/lainnya: { $count }
report-dl-sales = 💰 Penjualan (harga downline): { $amount }
report-dl-cost = 🏷 Modal Anda: { $amount }
report-dl-margin = 💵 Margin Anda: { $amount }
report-dl-rows-title = <b>Per downline</b> (Sukses)
report-dl-row = { $n }. { $name }: { $count }× · jual { $sales } · modal { $cost } · margin { $margin }
report-dl-note = <i>Penjualan, modal dan margin dari transaksi Sukses, dengan harga dan modal yang tersimpan saat downline mengonfirmasi.</i>
report-dl-empty = Tidak ada pembelian downline pada { $from } s.d. { $to } (WIB).
report-dl-bad-date =
    Tanggal tidak dikenali. Tulis rentang tanggal seperti ini:
    <code>/laporan dl 2026-11-01 2026-11-15</code>
    <code>/laporan dl @user 01/11/2026 15/11/2026</code>
report-dl-former = { $name } (sudah keluar)
