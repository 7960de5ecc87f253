## Broadcast (ADMIN_IDS only)

broadcast-usage = Tulis pesannya setelah perintah (misalnya: /broadcast Harga pulsa naik mulai besok), atau balas pesan apa pun (teks, foto, video, dokumen, dengan tombol) dengan /broadcast.
broadcast-cannot-copy = Pesan itu tidak bisa disalin. Balas pesan teks, foto, video atau dokumen.
broadcast-pick-audience = Pesan di atas adalah pratinjaunya. Kirim ke siapa?
broadcast-audience-all = Semua pengguna aktif
broadcast-audience-service = Terhubung ke { $service }
broadcast-audience-locale-id = Bahasa Indonesia
broadcast-audience-locale-en = Bahasa Inggris
broadcast-audience-buyers = Beli dalam { $days } hari terakhir
broadcast-confirm = Kirim pesan di atas ke { $count } pengguna aktif ({ $audience })?
broadcast-nobody = Tidak ada pengguna aktif untuk pilihan ini ({ $audience }).
broadcast-send = 📣 Kirim
broadcast-back = ⬅️ Kembali
broadcast-cancelled = Siaran dibatalkan.
broadcast-queued = Siaran masuk antrean untuk { $count } pengguna; kemajuan tampil di sini.
broadcast-busy = Siaran lain masih berjalan. Tunggu laporannya atau hentikan dengan /broadcast_cancel.
broadcast-none = Tidak ada siaran yang berjalan.
broadcast-cancelling = Siaran dihentikan; laporan akhirnya menyusul.
broadcast-progress =
    📣 Siaran berjalan
    Terkirim: { $sent } · sisa: { $remaining } · diblokir: { $blocked } · gagal: { $failed }
    Kecepatan: { $rate } pesan/detik · perkiraan selesai: { $eta }
    Hentikan: /broadcast_cancel
broadcast-report-done =
    ✅ Siaran selesai untuk { $total } pengguna.
    Terkirim: { $sent } · diblokir: { $blocked } · gagal: { $failed }
broadcast-report-cancelled =
    ⏹ Siaran dihentikan.
    Terkirim: { $sent } · diblokir: { $blocked } · gagal: { $failed } · tidak dikirim: { $remaining } (dari { $total })
