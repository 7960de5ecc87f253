## Daily summary: /summary, yesterday's report every day at a chosen hour (WIB)

command-summary = Scheduled daily summary (yesterday's report)
summary-menu =
    🗓 <b>Daily summary</b>
    Every day at the hour you choose (WIB), the bot sends yesterday's report: transactions, turnover, balance movements, and a 📈 Chart button.
summary-status-on = Now: on, every day at { $hour } WIB.
summary-status-off = Now: off. Choose an hour to turn it on.
summary-set = Daily summary on: { $hour } WIB
summary-off = Daily summary turned off
summary-button-off = Off
summary-open-button = 🗓 Daily summary
summary-headline = 🗓 <b>Daily summary</b> · yesterday's report
