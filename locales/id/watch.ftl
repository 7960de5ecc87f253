## Price-change alerts (/pantau)

command-watch = Pantau perubahan harga dan gangguan produk
watch-title = <b>📊 Pantau perubahan harga</b>
watch-status-on = 🔔 Aktif: saya kabari sekali per perubahan (gangguan, aktif lagi, harga naik/turun, produk baru atau dihapus).
watch-status-off = 🔕 Belum aktif.
watch-brands-all = Brand: semua
watch-brands-some = Brand: { $brands }
watch-group-on = Grup { $title }: ikut menerima ringkasan (tanpa harga modal dan untung)
watch-group-off = Grup { $title }: tidak menerima ringkasan
watch-group-none = Grup: belum ada (ketik /linkgroup di grup Anda untuk menautkannya)
watch-brands-unavailable = Daftar brand tidak bisa diambil sekarang; coba /pantau lagi sebentar lagi.
watch-hint = Ketuk brand untuk memilih (ketuk lagi untuk melepas), atau ketik misalnya /pantau telkomsel xl. /pantau semua untuk semua brand, /pantau off untuk berhenti.
watch-button-on = 🔔 Aktifkan
watch-button-off = 🔕 Matikan
watch-button-all = Semua brand
watch-button-group-on = 👥 Kirim juga ke grup
watch-button-group-off = 👥 Jangan kirim ke grup
watch-saved = Tersimpan.
watch-unsubscribed = 🔕 Pantauan harga dimatikan. Ketik /pantau untuk mengaktifkannya lagi.
watch-unknown-brands = Brand ini tidak ada di daftar harga Anda: { $words }. Pilih dari tombol di bawah.

watch-digest-title = <b>📊 Perubahan harga</b>
watch-digest-losses = ⚠️ { $count } produk rugi dengan harga jual Anda sekarang: ubah harga jual Anda.
watch-kind-unavailable = <b>⛔ Gangguan ({ $count })</b>
watch-kind-active = <b>✅ Aktif lagi ({ $count })</b>
watch-kind-up = <b>🔺 Naik ({ $count })</b>
watch-kind-down = <b>🔻 Turun ({ $count })</b>
watch-kind-new = <b>🆕 Baru ({ $count })</b>
watch-kind-removed = <b>🗑 Dihapus ({ $count })</b>
watch-line = • <code>{ $code }</code> { $name }
watch-line-status = • <code>{ $code }</code> { $name } — { $status }
watch-line-new = • <code>{ $code }</code> { $name } — { $price }
watch-line-price = • <code>{ $code }</code> { $name }: { $old } → { $new }
watch-margin = · untung { $margin }
watch-loss = ⚠️ rugi { $loss } (jual { $sell })
watch-digest-more = … dan { $count } lainnya
watch-digest-footer = Atur brand dan grup dengan /pantau.
