## Sell prices: /sellprice, the reseller's markup rules (cost → sell price, margin)

command-sellprice = Sell prices: set your markup
sell-title = 💰 <b>Sell prices</b>
sell-none = No rules yet, so the sell price equals the cost. Set a default markup, or one per brand or per product, with the buttons below.
sell-default = Default: { $markup }
sell-default-none = Default: no markup
sell-step = Rounded up to a multiple of { $step }
sell-step-none = Not rounded
sell-brands-title = <b>Per brand</b>
sell-products-title = <b>Per product</b>
sell-rule-line = • { $name }: { $markup }
sell-markup-fixed = { $sign }{ $amount }
sell-markup-percent = { $sign }{ $percent }%
sell-markup-price = sell price { $price }
sell-order-note = <i>A product rule beats a brand rule, which beats the default.</i> Quick: <code>/sellprice 5%</code> sets the default markup.

sell-button-default = ✏️ Default markup
sell-button-brand = 🏷 Per brand
sell-button-product = 📦 Per product
sell-button-step-none = No rounding
sell-button-step = { $step }
sell-button-cancel = ❌ Cancel

sell-syntax-default = Write a percent (<code>5%</code>, <code>2.5%</code>) or rupiah (<code>1500</code>, <code>Rp 1.500</code>, <code>1,5rb</code>). <code>0</code> = no markup.
sell-ask-default =
    ✏️ Type the default markup for every product.
    { sell-syntax-default }
sell-bad-default =
    "{ $text }" is not a markup I know.
    { sell-syntax-default }
sell-ask-step = Markup { $markup }. Round sell prices up to a multiple of what?
sell-use-step-buttons = Choose the rounding with the buttons above, or /cancel.
sell-syntax-brand =
    One line per brand: the brand name, then the markup (rupiah or percent; may be negative).
    <code>TELKOMSEL 1000</code>
    <code>MOBILE LEGENDS 5%</code>
    Remove: <code>TELKOMSEL remove</code>
sell-ask-brand =
    🏷 Type a markup per brand (names as in /prices).
    { sell-syntax-brand }
sell-bad-brand =
    The line "{ $text }" could not be read.
    { sell-syntax-brand }
sell-syntax-product =
    One line per product: the product code, then a markup, or <code>=</code> and the exact sell price.
    <code>TSEL10 1000</code> (markup Rp 1.000)
    <code>TSEL10 5%</code>
    <code>TSEL10 =12500</code> (sell price Rp 12.500, not rounded)
    Remove: <code>TSEL10 remove</code>
sell-ask-product =
    📦 Type a markup per product.
    { sell-syntax-product }
sell-bad-product =
    The line "{ $text }" could not be read.
    { sell-syntax-product }
sell-too-large = "{ $text }" is too large: a markup or sell price is at most { $rupiah }, a percent at most { $percent }%.
sell-ambiguous = "{ $text }" could mean a percent or rupiah, so I have not used it. Write <code>{ $percent }</code> for a percent, or <code>{ $rupiah }</code> for rupiah.
sell-ambiguous-oneshot = "{ $text }" could mean a percent or rupiah, so your rules are unchanged. Write <code>/sellprice { $percent }</code> for a percent, or <code>/sellprice { $rupiah }</code> for rupiah.
sell-text-only = Answer with text, or type /cancel.
sell-cancelled = Cancelled; your sell-price rules are unchanged.
sell-saved = ✅ Sell-price rules saved.
sell-cleared = 🗑 Every sell-price rule removed: sell price = cost.
sell-bad-oneshot =
    "{ $text }" is not a markup I know.
    { sell-syntax-default }
    Example: <code>/sellprice 5%</code>. Remove every rule: <code>/sellprice remove</code>. Per brand or product: /sellprice, then its button.
sell-check-line = { $code } · { $figures }
sell-brand-check = { $brand }: { $count } products, e.g. { $code } · { $figures }
sell-brand-not-in-list = { $brand }: no product of this brand in your price list (the rule is kept anyway). Write brand names as /prices shows them, e.g. { $examples }.
sell-not-in-list = { $code }: not in your price list (the rule is kept anyway).

sell-figures = { $cost } → { $sell } ({ $margin })
sell-figures-loss = { $cost } → { $sell } (⚠️ loss { $margin })
