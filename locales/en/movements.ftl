## Balance movements: the section of /report with the balances the bot saw

moves-title = 💳 <b>Balance movements</b> (as read by the bot)
moves-count = { $count ->
    [0] no change yet (the starting balance only)
    [one] { $count } change recorded
   *[other] { $count } changes recorded
}
moves-summary = First { $first } · Last { $last } · Lowest { $lowest } ({ $lowestAt })
moves-line = { $time } · { $balance } ({ $change })
moves-line-first = { $time } · { $balance }
moves-none = 💳 <i>Balance movements: no balance was read in this period. The bot records the balance whenever it reads it (/balance, the purchase summary of /buy, balance alert checks).</i>
