## Balance: /saldo, the reseller deposit balance

balance-shown =
    💰 Saldo { $service }: <b>{ $amount }</b>
    Akun: { $label }
    Per { $time }
balance-refreshed = Saldo diperbarui.
balance-unchanged = Saldo masih sama.
