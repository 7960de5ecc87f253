## Balance movements: the section of /laporan with the balances the bot saw

moves-title = 💳 <b>Pergerakan saldo</b> (yang terbaca oleh bot)
moves-count = { $count ->
    [0] belum ada perubahan (hanya saldo awal)
   *[other] { $count } perubahan tercatat
}
moves-summary = Awal { $first } · Akhir { $last } · Terendah { $lowest } ({ $lowestAt })
moves-line = { $time } · { $balance } ({ $change })
moves-line-first = { $time } · { $balance }
moves-none = 💳 <i>Pergerakan saldo: tidak ada saldo terbaca pada periode ini. Saldo dicatat setiap kali bot membacanya (/saldo, ringkasan pembelian di /beli, pemeriksaan peringatan saldo).</i>
