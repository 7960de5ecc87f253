## Balance: /balance, the reseller deposit balance

balance-shown =
    💰 { $service } balance: <b>{ $amount }</b>
    Account: { $label }
    As of { $time }
balance-refreshed = Balance updated.
balance-unchanged = The balance is the same.
