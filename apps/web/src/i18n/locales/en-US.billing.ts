/** English texts of the user's Billing screen; they load with the screen (loadLaterTexts). */
const enUSBilling = {
  myBilling: {
    title: 'Billing',
    description: 'Your plan, what each month cost you and your invoices, in USDT.',
    plan: {
      title: 'Your plan',
      none: 'No plan',
      noneHint: 'Nothing is charged.',
      hint: 'Of the profit above your high-water mark, each month',
      inactive: 'Paused: months are recorded without a fee',
    },
    current: {
      title: '{{period}} so far',
      feeSoFar: 'Fee so far',
    },
    highWaterMark: {
      title: 'High-water mark',
      hint: 'No fee until your total profit passes it',
    },
    due: {
      title: 'To pay',
      hint_one: '{{count}} open invoice',
      hint_other: '{{count}} open invoices',
    },
    how: {
      title: 'How the fee is worked out',
      text: 'At the end of each month your realised profit is added to your running total. The fee is your plan’s share of the part of that total above its highest level so far (the high-water mark), so a loss is made up before anything is charged again. Months with no profit above the mark cost nothing.',
    },
    months: {
      title: 'Months billed',
      period: 'Month',
      profit: 'Profit',
      highWaterMark: 'High-water mark',
      feeable: 'Above the mark',
      fee: 'Fee',
      status: 'Status',
      empty: 'No month billed yet',
      emptyHint: 'Each month appears here once it is over and has been processed.',
    },
    monthStatus: {
      no_fee: 'No fee',
      waived: 'Waived',
      pending: 'To invoice',
      invoiced: 'Invoiced',
      paid: 'Paid',
    },
    invoices: {
      title: 'Invoices',
      number: 'Number',
      period: 'Month',
      amount: 'Amount',
      status: 'Status',
      issuedAt: 'Issued',
      dueDate: 'Due',
      paidAt: 'Paid',
      empty: 'No invoices',
      emptyHint: 'An invoice is opened for a month with a fee.',
    },
    invoiceStatus: {
      draft: 'Draft',
      open: 'To pay',
      paid: 'Paid',
      void: 'Cancelled',
    },
  },
};

export default enUSBilling;
